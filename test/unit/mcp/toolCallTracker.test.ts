import { describe, expect, it, vi } from "vitest";
import { type LinkedResources, type TrackerChange, ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import { jsonResult, type ToolResult } from "../../../src/core/mcp/toolResult";
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

const body = (result: ToolResult) => JSON.parse(result.content[0]?.text ?? "null");

/** A handler that waits until released (or forever). */
function pending() {
  let release!: (r: ToolResult) => void;
  const promise = new Promise<ToolResult>((r) => (release = r));
  return { handler: vi.fn(() => promise), release };
}

describe("ToolCallTracker", () => {
  it("passes the handler's own result through and forgets the call afterwards", async () => {
    const tracker = new ToolCallTracker(resources(), new ManualClock(1000));
    const changes: TrackerChange[] = [];
    tracker.onChange((c) => changes.push(c));
    const call = tracker.wrapHandler("read_file", async (args: { path: string }) => jsonResult({ text: args.path }), (a) => a.path);
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
    const call = tracker.wrapHandler(
      "write_file",
      (_args: object, ctx) => {
        signal = ctx.signal;
        ctx.linkApproval("ap1");
        ctx.linkDiff("d1");
        ctx.linkTerminal("t1");
        return handler();
      },
      () => "x",
    );
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

  it("Complete on execute_command returns the partial output, exit_code null, and says it may still run", async () => {
    const tracker = new ToolCallTracker(resources());
    const call = tracker.wrapHandler("execute_command", (_a: object, ctx) => (ctx.linkTerminal("t1"), pending().handler()), () => "sleep 999");
    const running = call({});
    await vi.waitFor(() => expect(tracker.calls()).toHaveLength(1));
    tracker.completeCall(tracker.calls()[0]!.id);
    expect(body(await running)).toMatchObject({ status: "force-completed", exit_code: null, output: "line 1\nline 2\n", output_captured: true, message: expect.stringMatching(/may still be running/) });
  });

  it("Complete on a write with a pending diff accepts it and lets the handler finish for real", async () => {
    const res = resources();
    const tracker = new ToolCallTracker(res);
    const { handler, release } = pending();
    res.acceptDiff.mockImplementation(() => release(jsonResult({ status: "written" })));
    const call = tracker.wrapHandler("apply_diff", (_a: object, ctx) => (ctx.linkDiff("d1"), handler()), () => "a.ts");
    const running = call({});
    await vi.waitFor(() => expect(tracker.calls()).toHaveLength(1));
    expect(tracker.completeCall(tracker.calls()[0]!.id)).toBe(true);
    expect(body(await running)).toEqual({ status: "written" });
  });

  it("Complete on a write with no diff yet force-completes it, having written nothing", async () => {
    const tracker = new ToolCallTracker(resources());
    const call = tracker.wrapHandler("write_file", () => pending().handler(), () => "a.ts");
    const running = call({});
    await vi.waitFor(() => expect(tracker.calls()).toHaveLength(1));
    tracker.completeCall(tracker.calls()[0]!.id);
    expect(body(await running)).toMatchObject({ status: "force-completed", message: expect.stringMatching(/nothing was written/) });
  });

  it("Complete on any other tool behaves like Cancel", async () => {
    const tracker = new ToolCallTracker(resources());
    const running = tracker.wrapHandler("get_diagnostics", () => pending().handler(), () => "")({});
    await vi.waitFor(() => expect(tracker.calls()).toHaveLength(1));
    tracker.completeCall(tracker.calls()[0]!.id);
    expect(body(await running)).toMatchObject({ status: "cancelled" });
  });

  it("resolving twice is harmless: the first result wins, a late one is ignored", async () => {
    const tracker = new ToolCallTracker(resources());
    const { handler, release } = pending();
    const running = tracker.wrapHandler("read_file", handler, () => "")({});
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
    const call = tracker.wrapHandler("read_file", () => {
      throw new Error("disk on fire");
    }, () => "");
    await expect(call({})).rejects.toThrow("disk on fire");
    expect(tracker.calls()).toEqual([]);
  });

  it("a client cancellation aborts the handler and ends the call at once", async () => {
    const tracker = new ToolCallTracker(resources());
    let signal: AbortSignal | undefined;
    const client = new AbortController();
    const running = tracker.wrapHandler("execute_command", (_a: object, ctx) => ((signal = ctx.signal), pending().handler()), () => "")({}, { signal: client.signal });
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
    const running = tracker.wrapHandler("write_file", (_a: object, ctx) => {
      ctx.linkApproval("approval-1");
      ctx.linkDiff("diff-1");
      return pending().handler();
    }, () => "")({}, { signal: client.signal });
    await vi.waitFor(() => expect(tracker.calls()[0]?.diffId).toBe("diff-1"));
    client.abort();
    await running;
    expect(links.cancelApproval).toHaveBeenCalledWith("approval-1");
    expect(links.rejectDiff).toHaveBeenCalledWith("diff-1");
  });

  it("1,000 concurrent calls force-finished leave nothing behind", async () => {
    const tracker = new ToolCallTracker(resources());
    const call = tracker.wrapHandler("execute_command", () => pending().handler(), () => "");
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
