import { describe, expect, it, vi } from "vitest";
import { GENERIC_COMPLETE_HINT, type LinkedResources, type TrackerChange, ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import { jsonResult, type ToolResult } from "../../../src/core/mcp/toolResult";
import { completeByAcceptingTheDiff, completeWithOutputSoFar } from "../../../src/core/toolDeclarations";
import { ManualClock } from "../../../src/core/util/clock";

function resources() {
  return {
    cancelApproval: vi.fn<(id: string) => void>(),
    rejectDiff: vi.fn<(id: string) => void>(),
    acceptDiff: vi.fn<(id: string) => void>(),
    interruptTerminal: vi.fn<(id: string) => void>(),
    partialOutput: vi.fn<(id: string) => { output: string; captured: boolean }>(() => ({ output: "line 1\nline 2\n", captured: true })),
  } satisfies LinkedResources;
}

/** execute_command as the tracker sees it: its name, display and declared Complete (handlers per test). */
const commandTool = { name: "execute_command", display: () => "sleep 999", complete: completeWithOutputSoFar };

const body = (result: ToolResult) => JSON.parse(result.content[0]?.text ?? "null");

/** A handler that waits until released (or forever). */
function pending() {
  let release!: (r: ToolResult) => void;
  const promise = new Promise<ToolResult>((r) => (release = r));
  return { handler: vi.fn(() => promise), release };
}

describe("ToolCallTracker", () => {
  it("passes the handler's own result through and forgets the call afterwards", async () => {
    const tracker = new ToolCallTracker(resources(), { clock: new ManualClock(1000) });
    const changes: TrackerChange[] = [];
    tracker.onDidChange((c) => changes.push(c));
    const call = tracker.wrapHandler({ name: "read_file", handler: async (args: { path: string }) => jsonResult({ text: args.path }), display: (a) => a.path });
    const result = await call({ path: "a.ts" }, { _meta: { "claudecode/toolUseId": "toolu_1" } });
    expect(body(result)).toEqual({ text: "a.ts" });
    expect(tracker.calls()).toEqual([]);
    expect(changes).toEqual([
      { type: "started", call: expect.objectContaining({ toolName: "read_file", display: "a.ts", toolUseId: "toolu_1", startedAt: 1000 }) },
      { type: "ended", id: expect.any(String) },
    ]);
  });

  it("Cancel withdraws the approval, rejects the diff, interrupts the command, and answers cancelled", async () => {
    const res = resources();
    const tracker = new ToolCallTracker(res);
    const { handler } = pending();
    let signal: AbortSignal | undefined;
    const call = tracker.wrapHandler({
      name: "write_file",
      handler: (_args: object, ctx) => {
        signal = ctx.signal;
        ctx.linkApproval("ap1");
        ctx.linkDiff("d1");
        ctx.linkTerminal("t1");
        return handler();
      },
      display: () => "x",
      complete: completeByAcceptingTheDiff,
    });
    const running = call({});
    await vi.waitFor(() => expect(tracker.calls()).toHaveLength(1));
    expect(tracker.cancelCall(tracker.calls()[0]!.id)).toBe(true);
    const result = await running;
    expect(result.isError).toBe(true);
    expect(body(result)).toMatchObject({ status: "cancelled", tool: "write_file" });
    expect(res.cancelApproval).toHaveBeenCalledWith("ap1");
    expect(res.rejectDiff).toHaveBeenCalledWith("d1");
    expect(res.interruptTerminal).toHaveBeenCalledWith("t1");
    expect(signal?.aborted).toBe(true);
    expect(tracker.calls()).toEqual([]);
  });

  it("Complete on execute_command (its declared Complete) returns the partial output, exit_code null, and says it may still run", async () => {
    const tracker = new ToolCallTracker(resources());
    const call = tracker.wrapHandler({ ...commandTool, handler: (_a: object, ctx) => (ctx.linkTerminal("t1"), pending().handler()) });
    const running = call({});
    await vi.waitFor(() => expect(tracker.calls()).toHaveLength(1));
    tracker.completeCall(tracker.calls()[0]!.id);
    expect(body(await running)).toMatchObject({
      status: "force-completed",
      exit_code: null,
      output: "line 1\nline 2\n",
      output_captured: true,
      message: expect.stringMatching(/may still be running/),
    });
  });

  it("Complete on a write (its declared Complete) with a pending diff accepts it and lets the handler finish for real", async () => {
    const res = resources();
    const tracker = new ToolCallTracker(res);
    const { handler, release } = pending();
    res.acceptDiff.mockImplementation(() => release(jsonResult({ status: "written" })));
    const call = tracker.wrapHandler({
      name: "apply_diff",
      handler: (_a: object, ctx) => (ctx.linkDiff("d1"), handler()),
      display: () => "a.ts",
      complete: completeByAcceptingTheDiff,
    });
    const running = call({});
    await vi.waitFor(() => expect(tracker.calls()).toHaveLength(1));
    expect(tracker.completeCall(tracker.calls()[0]!.id)).toBe(true);
    expect(body(await running)).toEqual({ status: "written" });
  });

  it("Complete on a write with no diff yet force-completes it, having written nothing", async () => {
    const tracker = new ToolCallTracker(resources());
    const call = tracker.wrapHandler({ name: "write_file", handler: () => pending().handler(), display: () => "a.ts", complete: completeByAcceptingTheDiff });
    const running = call({});
    await vi.waitFor(() => expect(tracker.calls()).toHaveLength(1));
    tracker.completeCall(tracker.calls()[0]!.id);
    expect(body(await running)).toMatchObject({ status: "force-completed", message: expect.stringMatching(/nothing was written/) });
  });

  it("Complete on any other tool behaves like Cancel", async () => {
    const tracker = new ToolCallTracker(resources());
    const running = tracker.wrapHandler({ name: "get_diagnostics", handler: () => pending().handler(), display: () => "" })({});
    await vi.waitFor(() => expect(tracker.calls()).toHaveLength(1));
    tracker.completeCall(tracker.calls()[0]!.id);
    expect(body(await running)).toMatchObject({ status: "cancelled" });
  });

  it("goes by what the tool declared, never by its name: an execute_command declaring no Complete gets the generic one", async () => {
    const res = resources();
    const tracker = new ToolCallTracker(res);
    const running = tracker.wrapHandler({
      name: "execute_command",
      handler: (_a: object, ctx) => (ctx.linkTerminal("t1"), pending().handler()),
      display: () => "sleep 999",
    })({});
    await vi.waitFor(() => expect(tracker.calls()[0]?.terminalId).toBe("t1"));
    expect(tracker.calls()[0]?.completeHint).toBe(GENERIC_COMPLETE_HINT);
    tracker.completeCall(tracker.calls()[0]!.id);
    expect(body(await running)).toMatchObject({ status: "cancelled", message: expect.stringMatching(/no partial result/) });
    expect(res.partialOutput).not.toHaveBeenCalled();
  });

  it("a tool of any name gets its own declared Complete, and its hint travels with each call", async () => {
    const tracker = new ToolCallTracker(resources());
    const rowsSoFar = {
      hint: "Return the rows found so far",
      run: () => ({ kind: "answer" as const, result: jsonResult({ status: "force-completed", rows: 3 }) }),
    };
    const running = tracker.wrapHandler({ name: "query_rows", handler: () => pending().handler(), display: () => "SELECT 1", complete: rowsSoFar })({});
    await vi.waitFor(() => expect(tracker.calls()).toHaveLength(1));
    expect(tracker.calls()[0]?.completeHint).toBe("Return the rows found so far");
    expect(tracker.completeCall(tracker.calls()[0]!.id)).toBe(true);
    expect(body(await running)).toEqual({ status: "force-completed", rows: 3 });
    expect(tracker.calls()).toEqual([]);
  });

  it("a declared answer withdraws the approval the call still waits on: a write with a path approval pending runs nothing later", async () => {
    const res = resources();
    const tracker = new ToolCallTracker(res);
    const running = tracker.wrapHandler({
      name: "write_file",
      handler: (_a: object, ctx) => (ctx.linkApproval("path-approval"), pending().handler()),
      display: () => "/etc/x",
      complete: completeByAcceptingTheDiff,
    })({});
    await vi.waitFor(() => expect(tracker.calls()[0]?.approvalId).toBe("path-approval"));
    tracker.completeCall(tracker.calls()[0]!.id);
    expect(body(await running)).toMatchObject({ status: "force-completed", message: expect.stringMatching(/nothing was written/) });
    expect(res.cancelApproval).toHaveBeenCalledWith("path-approval");
    expect(res.acceptDiff).not.toHaveBeenCalled();
  });

  it("execute_command's Complete before its command started (still awaiting approval) cancels like any tool, withdrawing the approval", async () => {
    const res = resources();
    const tracker = new ToolCallTracker(res);
    const running = tracker.wrapHandler({ ...commandTool, handler: (_a: object, ctx) => (ctx.linkApproval("ap1"), pending().handler()) })({});
    await vi.waitFor(() => expect(tracker.calls()[0]?.approvalId).toBe("ap1"));
    tracker.completeCall(tracker.calls()[0]!.id);
    expect(body(await running)).toMatchObject({ status: "cancelled" });
    expect(res.cancelApproval).toHaveBeenCalledWith("ap1");
    expect(res.partialOutput).not.toHaveBeenCalled();
  });

  it("a change listener that throws breaks neither the call nor the other listeners", async () => {
    const tracker = new ToolCallTracker(resources());
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    tracker.onDidChange(() => {
      throw new Error("listener bug");
    });
    const seen: string[] = [];
    tracker.onDidChange((c) => seen.push(c.type));
    const result = await tracker.wrapHandler({ name: "read_file", handler: async () => jsonResult({ text: "ok" }), display: () => "a.ts" })({});
    expect(body(result)).toEqual({ text: "ok" });
    expect(seen).toEqual(["started", "ended"]);
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });

  it("resolving twice is harmless: the first result wins, a late one is ignored", async () => {
    const tracker = new ToolCallTracker(resources());
    const { handler, release } = pending();
    const running = tracker.wrapHandler({ name: "read_file", handler, display: () => "" })({});
    await vi.waitFor(() => expect(tracker.calls()).toHaveLength(1));
    const id = tracker.calls()[0]!.id;
    expect(tracker.cancelCall(id)).toBe(true);
    expect(tracker.cancelCall(id)).toBe(false);
    expect(tracker.completeCall(id)).toBe(false);
    release(jsonResult({ late: true }));
    expect(body(await running)).toMatchObject({ status: "cancelled" });
  });

  it("a handler that throws is cleaned up and its error reaches the caller", async () => {
    const tracker = new ToolCallTracker(resources());
    const call = tracker.wrapHandler({
      name: "read_file",
      handler: () => {
        throw new Error("disk on fire");
      },
      display: () => "",
    });
    await expect(call({})).rejects.toThrow("disk on fire");
    expect(tracker.calls()).toEqual([]);
  });

  it("a client cancellation aborts the handler and ends the call at once", async () => {
    const tracker = new ToolCallTracker(resources());
    let signal: AbortSignal | undefined;
    const client = new AbortController();
    const running = tracker.wrapHandler({ ...commandTool, handler: (_a: object, ctx) => ((signal = ctx.signal), pending().handler()) })(
      {},
      { signal: client.signal },
    );
    await vi.waitFor(() => expect(tracker.calls()).toHaveLength(1));
    client.abort();
    expect(body(await running)).toMatchObject({ status: "cancelled", message: expect.stringMatching(/cancelled by the client/) });
    expect(signal?.aborted).toBe(true);
    expect(tracker.calls()).toEqual([]);
  });

  it("a client cancellation also withdraws what the call waited on: its approval, its diff, its command", async () => {
    const links = resources();
    const tracker = new ToolCallTracker(links);
    const client = new AbortController();
    const running = tracker.wrapHandler({
      name: "write_file",
      handler: (_a: object, ctx) => {
        ctx.linkApproval("approval-1");
        ctx.linkDiff("diff-1");
        return pending().handler();
      },
      display: () => "",
      complete: completeByAcceptingTheDiff,
    })({}, { signal: client.signal });
    await vi.waitFor(() => expect(tracker.calls()[0]?.diffId).toBe("diff-1"));
    client.abort();
    await running;
    expect(links.cancelApproval).toHaveBeenCalledWith("approval-1");
    expect(links.rejectDiff).toHaveBeenCalledWith("diff-1");
  });

  it("1,000 concurrent calls force-finished leave nothing behind", async () => {
    const tracker = new ToolCallTracker(resources());
    const call = tracker.wrapHandler({ ...commandTool, handler: () => pending().handler() });
    const running = Array.from({ length: 1000 }, () => call({}));
    await vi.waitFor(() => expect(tracker.calls()).toHaveLength(1000));
    for (const [i, c] of tracker.calls().entries()) {
      if (i % 2) tracker.cancelCall(c.id);
      else tracker.completeCall(c.id);
    }
    const results = await Promise.all(running);
    expect(results.every((r) => ["cancelled", "force-completed"].includes(body(r).status))).toBe(true);
    expect(tracker.calls()).toEqual([]);
  });
});
