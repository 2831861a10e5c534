/**
 * The Sessions list's protocol (an editor tab, page `sessions`): it asks for its list and acts on
 * a session; the extension pushes the list, then each row as its session is read whole. Its host
 * (vscode/sessions/sessionsView.ts) accepts these messages only.
 */
import * as z from "zod/mini";
import type { SessionRowView } from "../protocol";
import type { NoPayload, PageDefinition, PageHandlers, PageMessage } from "./pageProtocol";
import { boundedId, type Holds, lazyPageParser, pageMessage, type SameMessages } from "./pageSchema";

export type SessionsRequests = {
  /** The page listens (each time it is shown): a `sessionsList` push follows, then `sessionRow`s. */
  sessionsReady: [NoPayload, void];
  /** A session: read it (the reader), resume it in a new terminal (or show the card following it), or open its raw JSONL. */
  sessionAction: [{ sessionId: string; action: "open" | "resume" | "raw" }, void];
};

export type SessionsPush =
  /** The whole list (newest first); `indexing`: sessions still being read whole. */
  | { type: "sessionsList"; sessions: SessionRowView[]; indexing: number }
  /** One session's row, read whole now (or followed by a card now). */
  | { type: "sessionRow"; session: SessionRowView; indexing: number };

export type SessionsProtocol = { requests: SessionsRequests; push: SessionsPush };

export type SessionsMessage = PageMessage<SessionsRequests>;

export type SessionsHandlers = PageHandlers<SessionsRequests>;

function buildSessionsSchema() {
  return z.discriminatedUnion("type", [
    pageMessage("sessionsReady", {}),
    pageMessage("sessionAction", { sessionId: boundedId(), action: z.enum(["open", "resume", "raw"]) }),
  ]);
}

// The schema and the map hold the same messages: one added to either alone fails to compile.
type _SchemaMatchesMap = Holds<SameMessages<z.infer<ReturnType<typeof buildSessionsSchema>>, SessionsMessage>>;

export const SESSIONS_PAGE: PageDefinition<SessionsProtocol> = {
  view: "sessions",
  name: "Sessions view",
  parse: lazyPageParser<SessionsMessage>(buildSessionsSchema),
};
