/**
 * After Complete on an execute_command the agent gets the output so far at once and the command,
 * by design, runs on in its terminal: the card says "Completed early — still running" on the
 * call's row, with Stop, until the process exits. Real tools behind the real MCP server, real
 * processes (toolHarness.ts), the real live board.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { LiveBoard } from "../../../src/agents/cards/liveBoard";
import { StillRunningCommands } from "../../../src/core/mcp/stillRunningCommands";
import { type Harness, startHarness } from "./toolHarness";

let h: Harness;
let stillRunning: StillRunningCommands;
afterEach(async () => {
  stillRunning?.dispose();
  await h?.close();
});

async function completedEarly(command: string) {
  h = await startHarness();
  stillRunning = new StillRunningCommands(h.tracker, { whenEnded: (id) => h.runner.whenEnded(id), interrupt: (id) => h.runner.interrupt(id) });
  const board = new LiveBoard({ calls: h.tracker, approvals: h.approvals, extras: { stillRunning } });
  const next = h.nextCall();
  const answered = h.call("execute_command", { command });
  const { id } = await next;
  const terminal = await h.terminalOf(id);
  await vi.waitFor(() => expect(h.runner.partialOutput(terminal).output).toContain("started"), { timeout: 5000 });
  expect(h.tracker.completeCall(id)).toBe(true);
  expect((await answered).body).toMatchObject({ status: "force-completed" });
  return { board, terminal };
}

describe("a command its call left running after Complete", () => {
  it("is on the card, completed early and still running, until its process exits", async () => {
    const { board, terminal } = await completedEarly("echo started; sleep 1");
    expect(board.view("agent-1").stillRunning).toEqual([{ id: terminal, toolUseId: null, display: "echo started; sleep 1", startedAt: expect.any(Number) }]);
    expect(h.runner.isRunning(terminal)).toBe(true);
    await vi.waitFor(() => expect(board.view("agent-1").stillRunning).toBeUndefined(), { timeout: 5000 });
    expect(h.runner.isRunning(terminal)).toBe(false);
  });

  it("Stop ends it (Ctrl+C), and then it is gone from the card", async () => {
    const { board, terminal } = await completedEarly("echo started; sleep 30");
    expect(stillRunning.stop(terminal)).toBe(true);
    await vi.waitFor(() => expect(board.view("agent-1").stillRunning).toBeUndefined(), { timeout: 5000 });
    expect(h.runner.isRunning(terminal)).toBe(false);
    expect(stillRunning.stop(terminal)).toBe(false);
  });

  it("a Cancel interrupts the command: nothing is left running to show", async () => {
    h = await startHarness();
    stillRunning = new StillRunningCommands(h.tracker, { whenEnded: (id) => h.runner.whenEnded(id), interrupt: (id) => h.runner.interrupt(id) });
    const next = h.nextCall();
    const answered = h.call("execute_command", { command: "echo started; sleep 30" });
    const { id } = await next;
    const terminal = await h.terminalOf(id);
    await vi.waitFor(() => expect(h.runner.partialOutput(terminal).output).toContain("started"), { timeout: 5000 });
    h.tracker.cancelCall(id);
    await answered;
    expect(stillRunning.of("agent-1")).toEqual([]);
  });
});
