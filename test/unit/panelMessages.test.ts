/** Messages from the webview are untrusted: anything off-protocol is logged and ignored. */
import { describe, expect, it } from "vitest";
import { panelPageBinding } from "../../src/vscode/panel/messageRouter";
import { WebviewHost } from "../../src/vscode/webviewHost";
import { memoryLog } from "../support/fakeTerminals";
import { FAKE_EXTENSION_URI, fakeJoinPath, fakePage, panelHandlerSpies } from "../support/fakeWebview";

function router() {
  const actions = panelHandlerSpies();
  const log = memoryLog();
  const page = fakePage();
  new WebviewHost(page.owner, { ...panelPageBinding(actions, log), extensionUri: FAKE_EXTENSION_URI, joinPath: fakeJoinPath });
  return { route: page.send, actions, log };
}

describe("webview messages", () => {
  it("routes each valid message to its action", async () => {
    const { route, actions } = router();
    await route({ type: "focusAgent", id: "a1" });
    await route({ type: "renameAgent", id: "a1", name: "  Tester " });
    expect(actions.focusAgent).toHaveBeenCalledWith({ type: "focusAgent", id: "a1" });
    expect(actions.renameAgent).toHaveBeenCalledWith({ type: "renameAgent", id: "a1", name: "Tester" });
  });

  it("routes a card's Send of its review comments, naming that agent only", async () => {
    const { route, actions } = router();
    await route({ type: "reviewAction", id: "a2", action: "send" });
    expect(actions.reviewAction).toHaveBeenCalledWith({ type: "reviewAction", id: "a2", action: "send" });
  });

  it("takes a name of exactly 80 characters, the most the rename field allows", async () => {
    const { route, actions } = router();
    await route({ type: "renameAgent", id: "a1", name: "x".repeat(80) });
    expect(actions.renameAgent).toHaveBeenCalledWith({ type: "renameAgent", id: "a1", name: "x".repeat(80) });
  });

  it.each([
    ["not an object", "focusAgent"],
    ["an unknown type", { type: "runShell", command: "rm -rf /" }],
    ["a missing id", { type: "closeAgent" }],
    ["an extra field", { type: "openClaude", command: "evil" }],
    ["an empty name", { type: "renameAgent", id: "a1", name: "   " }],
    ["a huge name", { type: "renameAgent", id: "a1", name: "x".repeat(1000) }],
    ["a name one character over the 80 the rename field allows", { type: "renameAgent", id: "a1", name: "x".repeat(81) }],
    ["an unknown decision", { type: "answerPrompt", id: "p1", decision: "always" }],
    ["a call id that is not a string", { type: "cancelCall", callId: 7 }],
    ["a Stop with no command id", { type: "stopCommand" }],
    ["an unknown worktree action", { type: "worktreeAction", id: "a1", action: "forceRemove" }],
    ["a review action that is not Send", { type: "reviewAction", id: "a1", action: "sendTo", to: "a2" }],
    ["a review Send with no agent", { type: "reviewAction", action: "send" }],
    ["a prototype trick", JSON.parse('{"type":"focusAgent","id":"a","__proto__":{"x":1}}')],
    ["the Sessions view's message", { type: "sessionsReady" }],
    ["a session reader's message", { type: "sessionAction", sessionId: "s1", action: "resume" }],
    ["a compare tab's message", { type: "runChecks", raceId: "r1" }],
  ])("ignores %s, with a log line", async (_what, raw) => {
    const { route, actions, log } = router();
    await route(raw);
    for (const action of Object.values(actions)) expect(action).not.toHaveBeenCalled();
    expect(log.lines.some((l) => l.startsWith("WARN ignored a message from the panel"))).toBe(true);
  });

  it("logs a failing action instead of throwing into the webview channel", async () => {
    const { route, actions, log } = router();
    actions.openClaude.mockRejectedValueOnce(new Error("boom"));
    await expect(route({ type: "openClaude" })).resolves.toBeUndefined();
    expect(log.lines).toContain("ERROR panel action openClaude failed: boom");
  });
});
