import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CommandRunner } from "../../../src/core/tools/ports";
import { type Harness, startHarness } from "./toolHarness";

let h: Harness;
afterEach(async () => h?.close());

/** Waits until the running command has printed `text` (it really runs: output arrives when it does). */
async function printed(terminalId: string, text: string) {
  await vi.waitFor(() => expect(h.runner.partialOutput(terminalId).output).toContain(text), { timeout: 5000 });
}

describe("execute_command", () => {
  it("runs the command in the workspace folder and answers with its output and exit code", async () => {
    h = await startHarness();
    const { isError, body } = await h.call("execute_command", { command: "pwd; echo to-stderr >&2; exit 0" });
    expect(isError).toBe(false);
    expect(body).toMatchObject({ status: "completed", exit_code: 0, output_captured: true });
    expect(body.output).toContain(h.workspace);
    expect(body.output).toContain("to-stderr");
  });

  it("a failing command is an error result carrying its exit code and output", async () => {
    h = await startHarness();
    const { isError, body } = await h.call("execute_command", { command: "echo broken; exit 3", cwd: "." });
    expect(isError).toBe(true);
    expect(body).toMatchObject({ status: "failed", exit_code: 3, output: "broken\n" });
    expect(body.message).toMatch(/^The command exited with code 3\./);
  });

  it("on timeout returns the output so far with timed_out: true, and interrupts the command", async () => {
    h = await startHarness();
    const call = h.nextCall();
    const running = h.call("execute_command", { command: "echo first-line; sleep 30; echo never", timeout_seconds: 1 });
    const terminal = await h.terminalOf((await call).id);
    const { isError, body } = await running;
    expect(isError).toBe(true);
    expect(body).toMatchObject({ status: "timed_out", timed_out: true, exit_code: null, output: "first-line\n" });
    expect(body.message).toMatch(/larger timeout_seconds/);
    expect(await h.runner.endOf(terminal)).toEqual({ kind: "exited", exitCode: 130 });
  });

  it("Complete from the panel returns the partial output, force-completed, while the command goes on", async () => {
    h = await startHarness();
    const call = h.nextCall();
    const running = h.call("execute_command", { command: "echo partial-1; echo partial-2; sleep 30" });
    const { id } = await call;
    const terminal = await h.terminalOf(id);
    await printed(terminal, "partial-2");
    expect(h.tracker.completeCall(id)).toBe(true);
    const { isError, body } = await running;
    expect(isError).toBe(false);
    expect(body).toMatchObject({ status: "force-completed", exit_code: null, output: "partial-1\npartial-2\n", output_captured: true });
    expect(body.message).toMatch(/may still be running/);
    expect(h.tracker.calls()).toEqual([]);
  });

  it("Cancel from the panel interrupts the command and answers cancelled", async () => {
    h = await startHarness();
    const call = h.nextCall();
    const marker = join(h.workspace, "finished");
    const running = h.call("execute_command", { command: `echo go; sleep 30; touch ${marker}` });
    const { id } = await call;
    const terminal = await h.terminalOf(id);
    await printed(terminal, "go");
    h.tracker.cancelCall(id);
    const { isError, body } = await running;
    expect(isError).toBe(true);
    expect(body).toMatchObject({ status: "cancelled", tool: "execute_command" });
    expect(await h.runner.endOf(terminal)).toEqual({ kind: "exited", exitCode: 130 });
    expect(existsSync(marker)).toBe(false);
  });

  it("a terminal closed mid-command ends the call with a clear error and the output so far", async () => {
    h = await startHarness();
    const call = h.nextCall();
    const running = h.call("execute_command", { command: "echo before-close; sleep 30" });
    const terminal = await h.terminalOf((await call).id);
    await printed(terminal, "before-close");
    h.runner.closeTerminal(terminal);
    const { isError, body } = await running;
    expect(isError).toBe(true);
    expect(body).toMatchObject({ status: "terminal_closed", exit_code: null, output: "before-close\n" });
    expect(body.message).toMatch(/was closed before the command finished/);
  });

  it("without shell integration says honestly that the output was not captured", async () => {
    const blind: CommandRunner = {
      start: async () => ({ id: "t1", where: "Arcadia: Agent #1 commands", ended: Promise.resolve({ kind: "notCaptured" }) }),
      interrupt: () => undefined,
      partialOutput: () => ({ output: "", captured: false }),
      release: () => undefined,
    };
    h = await startHarness({ commands: blind });
    const { isError, body } = await h.call("execute_command", { command: "make" });
    expect(isError).toBe(true);
    expect(body).toMatchObject({ status: "output_not_captured", output_captured: false, exit_code: null, terminal: "Arcadia: Agent #1 commands" });
    expect(body.message).toMatch(/no shell integration.*output not captured/);
  });

  describe("approval", () => {
    it("a command that needs approval waits for Allow; the approval names the agent and the call", async () => {
      h = await startHarness({ commandApproval: { mode: "unlessAllowListed", allowed: ["echo"] } });
      const call = h.nextCall();
      const asked = h.nextApproval();
      const running = h.call("execute_command", { command: "rm -f nothing-here && echo removed" });
      const approval = await asked;
      expect(approval).toMatchObject({ kind: "command", subject: "rm -f nothing-here && echo removed", agentId: "agent-1", callId: (await call).id });
      expect(approval.reason).toMatch(/it chains, pipes or redirects/);
      expect(h.tracker.calls()[0]?.approvalId).toBe(approval.id);
      expect(h.runner.started).toEqual([]);
      h.approvals.decide(approval.id, "allow");
      expect((await running).body).toMatchObject({ status: "completed", output: "removed\n" });
    });

    it("Deny: nothing runs, and the agent is told not to retry", async () => {
      h = await startHarness({ commandApproval: { mode: "always", allowed: [] } });
      h.answerApprovals("deny");
      const { isError, body } = await h.call("execute_command", { command: "echo hi" });
      expect(isError).toBe(true);
      expect(body).toMatchObject({ status: "denied" });
      expect(body.message).toMatch(/denied running `echo hi`.*Do not retry/);
      expect(h.runner.started).toEqual([]);
    });

    it("Cancel while the approval waits withdraws it", async () => {
      h = await startHarness({ commandApproval: { mode: "always", allowed: [] } });
      const call = h.nextCall();
      const asked = h.nextApproval();
      const running = h.call("execute_command", { command: "echo hi" });
      await asked;
      h.tracker.cancelCall((await call).id);
      expect((await running).body).toMatchObject({ status: "cancelled" });
      expect(h.approvals.pending()).toEqual([]);
      expect(h.runner.started).toEqual([]);
    });
  });

  describe("bad input", () => {
    it("an empty command, a fractional timeout, or a missing cwd get messages the agent can act on", async () => {
      h = await startHarness();
      const empty = await h.call("execute_command", { command: "  " });
      expect(empty.isError).toBe(true);
      expect(empty.text).toMatch(/command is empty: give the shell command line to run/);
      const fraction = await h.call("execute_command", { command: "ls", timeout_seconds: 1.5 });
      expect(fraction.text).toMatch(/timeout_seconds must be a whole number of seconds/);
      const noCwd = await h.call("execute_command", { command: "ls", cwd: "no/such/folder" });
      expect(noCwd.body.message).toMatch(/does not exist: give an existing folder, or leave cwd out/);
      expect(h.runner.started).toEqual([]);
    });

    it("an unknown tool gets an error result and the server keeps serving", async () => {
      h = await startHarness();
      const unknown = await h.call("run_terminal_command", { command: "ls" });
      expect(unknown.isError).toBe(true);
      expect(unknown.text).toMatch(/Tool run_terminal_command not found/);
      expect((await h.call("execute_command", { command: "echo still-here" })).body.output).toBe("still-here\n");
    });
  });
});
