/** A page's client: requests paired with their answers by id, pushes to listeners, nothing else let in. */
import { describe, expect, it, vi } from "vitest";
import type { NoPayload } from "../../src/shared/protocols/pageProtocol";
import { type PageClient, sendRequest } from "../src/clients/pageClient";
import * as sessions from "../src/clients/sessionsClient";
import { fakeVsCode } from "./helpers";

/** What the extension posts to the page. */
const fromExtension = (data: unknown) => window.dispatchEvent(new MessageEvent("message", { data }));

/** A page whose requests answer something, its `request` made as the real pages' are. */
type CountingPage = { requests: { double: [{ n: number }, number]; ping: [NoPayload, void] }; push: { type: "tick" } };
const request = sendRequest as PageClient<CountingPage>["request"];
/** The id of the request posted last. */
const lastId = (posted: unknown[]) => (posted.at(-1) as { requestId: number }).requestId;

describe("a page's client", () => {
  it("sends a request with an id of its own and resolves each with the answer to that id, in whatever order they come", async () => {
    const host = fakeVsCode();
    const one = request("double", { n: 1 });
    const first = lastId(host.posted);
    const two = request("double", { n: 2 });
    expect(host.posted).toEqual([
      { type: "double", n: 1, requestId: first },
      { type: "double", n: 2, requestId: first + 1 },
    ]);
    fromExtension({ type: "response", requestId: first + 1, ok: true, result: 4 });
    fromExtension({ type: "response", requestId: first, ok: true, result: 2 });
    await expect(two).resolves.toBe(4);
    await expect(one).resolves.toBe(2);
  });

  it("rejects a request the extension could not do, with its reason", async () => {
    const host = fakeVsCode();
    const ping = request("ping", {});
    fromExtension({ type: "response", requestId: lastId(host.posted), ok: false, error: "not a message this page can send" });
    await expect(ping).rejects.toThrow("not a message this page can send");
  });

  it("posts a message as it is, without an id: nothing waits for an answer", () => {
    const host = fakeVsCode();
    sessions.post({ type: "sessionAction", sessionId: "b", action: "resume" });
    expect(host.posted).toEqual([{ type: "sessionAction", sessionId: "b", action: "resume" }]);
  });

  it("hands listeners its own page's pushes only: never an answer, another page's push or a malformed one", () => {
    fakeVsCode();
    const heard = vi.fn();
    const stop = sessions.onPush(heard);
    fromExtension({ type: "response", requestId: 1, ok: true });
    fromExtension({ type: "compareState", race: null });
    fromExtension({ type: "snapshot", agents: [], live: [], notice: null });
    fromExtension({ type: "sessionsList", sessions: "nope", indexing: 0 });
    fromExtension({ type: "constructor" });
    expect(heard).not.toHaveBeenCalled();
    fromExtension({ type: "sessionsList", sessions: [], indexing: 0 });
    expect(heard).toHaveBeenCalledWith({ type: "sessionsList", sessions: [], indexing: 0 });
    stop();
    fromExtension({ type: "sessionsList", sessions: [], indexing: 0 });
    expect(heard).toHaveBeenCalledOnce();
  });
});
