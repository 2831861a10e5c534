/**
 * A session reader's protocol (an editor tab per session, page `session`): it asks for its
 * session, then Resume or the raw JSONL; the extension pushes the session in parts as it is read.
 * Its host (vscode/sessions/sessionReader.ts) accepts these messages only, and acts on its own session.
 */
import * as z from "zod/mini";
import type { SessionItemView, ToolView } from "../protocol";
import type { NoPayload, PageDefinition, PageHandlers, PageMessage } from "./pageProtocol";
import { boundedId, type Holds, lazyPageParser, pageMessage, type SameMessages } from "./pageSchema";

export type ReaderRequests = {
  /** The page listens: `sessionItems` pushes follow, the last one `done`. */
  sessionsReady: [NoPayload, void];
  /** Resume the session in a new terminal, or open its raw JSONL. */
  sessionAction: [{ sessionId: string; action: "resume" | "raw" }, void];
};

export type ReaderPush =
  /** The next part of the session; `reset`: the first (what was shown before goes); `done` once all of it is read. */
  {
    type: "sessionItems";
    title: string;
    items: SessionItemView[];
    /** Calls already sent that ended: their outcome and their words once ended (a command: "npm test"; absent from an older host: unchanged). */
    updates: { id: string; outcome: ToolView["outcome"]; label?: string }[];
    done: boolean;
    reset: boolean;
    /** Why Resume cannot work (the folder it ran in is gone), said instead of offering it; null or absent: it can. */
    cannotResume?: string | null;
  };

export type ReaderProtocol = { requests: ReaderRequests; push: ReaderPush };

export type ReaderMessage = PageMessage<ReaderRequests>;

export type ReaderHandlers = PageHandlers<ReaderRequests>;

function buildReaderSchema() {
  return z.discriminatedUnion("type", [
    pageMessage("sessionsReady", {}),
    pageMessage("sessionAction", { sessionId: boundedId(), action: z.enum(["resume", "raw"]) }),
  ]);
}

// The schema and the map hold the same messages: one added to either alone fails to compile.
type _SchemaMatchesMap = Holds<SameMessages<z.infer<ReturnType<typeof buildReaderSchema>>, ReaderMessage>>;

export const READER_PAGE: PageDefinition<ReaderProtocol> = { view: "session", name: "session reader", parse: lazyPageParser<ReaderMessage>(buildReaderSchema) };
