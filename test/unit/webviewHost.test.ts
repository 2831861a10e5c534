/**
 * The one host of every webview page: it writes the page, lets in only that page's own messages
 * (untrusted input), hands each to its handler, answers a request with that request's id, and
 * stops once its page is gone.
 */
import { describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { PANEL_PAGE } from "../../src/shared/protocols/panel";
import type { NoPayload, PageDefinition, PageMessage } from "../../src/shared/protocols/pageProtocol";
import { lazyPageParser, pageMessage } from "../../src/shared/protocols/pageSchema";
import { COMPARE_PAGE } from "../../src/shared/protocols/compare";
import { READER_PAGE } from "../../src/shared/protocols/reader";
import { SESSIONS_PAGE } from "../../src/shared/protocols/sessions";
import { type PageBinding, WebviewHost } from "../../src/vscode/webviewHost";
import type { PageProtocol } from "../../src/shared/protocols/pageProtocol";
import { memoryLog } from "../support/fakeTerminals";
import { FAKE_EXTENSION_URI, fakeJoinPath, fakePage, panelHandlerSpies } from "../support/fakeWebview";

function host<P extends PageProtocol>(binding: Omit<PageBinding<P>, "log">, initialState?: unknown) {
  const page = fakePage();
  const log = memoryLog();
  const hosted = new WebviewHost(page.owner, { ...binding, log, extensionUri: FAKE_EXTENSION_URI, joinPath: fakeJoinPath, initialState });
  return { ...page, log, host: hosted };
}

/** A page whose requests answer something, made with the same pieces as the real pages. */
type CountingRequests = { double: [{ n: number }, number]; fail: [NoPayload, void] };
type CountingPage = { requests: CountingRequests; push: { type: "tick" } };
const COUNTING_PAGE: PageDefinition<CountingPage> = {
  view: "sessions",
  name: "counting page",
  parse: lazyPageParser<PageMessage<CountingRequests>>(() => z.discriminatedUnion("type", [pageMessage("double", { n: z.number() }), pageMessage("fail", {})])),
};

describe("the webview host", () => {
  it("writes its page: scripts on, files from dist/webview only, the page's own bundle and the data it reads first", () => {
    const { webview } = host({ page: READER_PAGE, handlers: { sessionsReady: vi.fn(), sessionAction: vi.fn() } }, { sessionId: "s1", title: "Fix </script>" });
    expect(webview.options).toEqual({ enableScripts: true, localResourceRoots: ["ext/dist/webview"] });
    expect(webview.html).toContain('<body data-view="session">');
    expect(webview.html).toContain('src="ext/dist/webview/assets/session.js"');
    expect(webview.html).toContain('{"sessionId":"s1","title":"Fix \\u003c/script\\u003e"}');
  });

  it("hands each message to the handler of its name, as the page sent it, and posts pushes as they are", async () => {
    const handlers = { sessionsReady: vi.fn(), sessionAction: vi.fn() };
    const page = host({ page: SESSIONS_PAGE, handlers });
    await page.send({ type: "sessionAction", sessionId: "s1", action: "raw" });
    expect(handlers.sessionAction).toHaveBeenCalledWith({ type: "sessionAction", sessionId: "s1", action: "raw" });
    expect(handlers.sessionsReady).not.toHaveBeenCalled();
    page.host.post({ type: "sessionsList", sessions: [], indexing: 0 });
    // A message posted without a request id is not answered: only the push went out.
    expect(page.posted).toEqual([{ type: "sessionsList", sessions: [], indexing: 0 }]);
  });

  it("ignores another page's message, with a log line, and throws nothing into the webview channel", async () => {
    const handlers = panelHandlerSpies();
    const page = host({ page: PANEL_PAGE, handlers });
    await expect(page.send({ type: "sessionsReady" })).resolves.toBeUndefined();
    await page.send({ type: "compareReady", raceId: "r1" });
    for (const handler of Object.values(handlers)) expect(handler).not.toHaveBeenCalled();
    expect(page.log.lines).toHaveLength(2);
    expect(page.log.lines.every((l) => l.startsWith("WARN ignored a message from the panel that does not fit its protocol"))).toBe(true);
  });

  it.each([
    ["the Sessions view", SESSIONS_PAGE, { type: "webviewReady" }],
    ["a session reader", READER_PAGE, { type: "sessionAction", sessionId: "s1", action: "open" }],
    ["a compare tab", COMPARE_PAGE, { type: "sessionsReady" }],
  ] as const)("%s's host takes none of the other pages' messages either", async (_page, definition, raw) => {
    // Every name answered by a handler that would count: none is called, the one log line says so.
    const page = host<PageProtocol>({ page: definition as unknown as PageDefinition<PageProtocol>, handlers: new Proxy({}, { get: () => vi.fn() }) });
    await page.send(raw);
    expect(page.log.lines).toEqual([expect.stringMatching(/^WARN ignored a message from the .* that does not fit its protocol/)]);
  });

  it("answers each request with its own id, whatever order the answers come in", async () => {
    let finishFirst = () => undefined as void;
    const first = new Promise<void>((resolve) => (finishFirst = resolve));
    const page = host({
      page: COUNTING_PAGE,
      handlers: { double: async ({ n }) => (n === 1 && (await first), 2 * n), fail: vi.fn() },
    });
    const one = page.send({ type: "double", n: 1, requestId: 7 });
    await page.send({ type: "double", n: 2, requestId: 8 });
    finishFirst();
    await one;
    expect(page.posted).toEqual([
      { type: "response", requestId: 8, ok: true, result: 4 },
      { type: "response", requestId: 7, ok: true, result: 2 },
    ]);
  });

  it("a failing handler: the request hears why, the log says which, nothing is thrown", async () => {
    const page = host({ page: COUNTING_PAGE, handlers: { double: vi.fn(), fail: () => Promise.reject(new Error("no worktree")) } });
    await expect(page.send({ type: "fail", requestId: 3 })).resolves.toBeUndefined();
    expect(page.posted).toEqual([{ type: "response", requestId: 3, ok: false, error: "no worktree" }]);
    expect(page.log.lines).toEqual(["ERROR counting page action fail failed: no worktree"]);
  });

  it("a request that does not fit is answered as failed (its page does not wait for ever); a bad id is not", async () => {
    const handlers = { double: vi.fn(), fail: vi.fn() };
    const page = host({ page: COUNTING_PAGE, handlers });
    await page.send({ type: "double", n: "2", requestId: 4 });
    await page.send({ type: "double", n: 2, requestId: 1.5 });
    await page.send({ type: "double", n: 2, requestId: -1 });
    expect(handlers.double).not.toHaveBeenCalled();
    expect(page.posted).toEqual([{ type: "response", requestId: 4, ok: false, error: "not a message this page can send" }]);
    expect(page.log.lines).toHaveLength(3);
  });

  it("once its page is closed: it says so, sends nothing more, and holds no subscription", async () => {
    const page = host({
      page: COMPARE_PAGE,
      handlers: { compareReady: vi.fn(), compareAction: vi.fn(), compareDiff: vi.fn(), runChecks: vi.fn(), capRace: vi.fn() },
    });
    const gone = vi.fn();
    page.host.onDidDispose(gone);
    expect(page.listening()).toBe(true);
    page.close();
    expect(gone).toHaveBeenCalledOnce();
    page.host.post({ type: "compareState", race: null });
    expect(page.posted).toEqual([]);
    expect(page.listening()).toBe(false);
    expect(page.closeListeners()).toBe(0);
  });
});
