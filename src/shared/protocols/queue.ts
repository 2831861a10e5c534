/**
 * The queue tab's protocol (one editor tab, page `queue`): it asks for the queue and acts on it and
 * its tasks; the extension pushes the queue whenever it changed. Its host (vscode/queue/queueTab.ts)
 * accepts these messages only; a task id is checked against the queue before anything is done.
 */
import * as z from "zod/mini";
import type { QueueView } from "../queueViews";
import type { NoPayload, PageDefinition, PageHandlers, PageMessage } from "./pageProtocol";
import { boundedId, type Holds, lazyPageParser, pageMessage, type SameMessages } from "./pageSchema";

export type QueueTaskAction = "moveUp" | "moveDown" | "cancel" | "retry" | "markDone" | "focus";
export type QueueControl = "pause" | "resume" | "add" | "land";

export type QueueRequests = {
  /** The page listens and asks for the queue as it is now. */
  queueReady: [NoPayload, QueuePush];
  /** A task's button: move it in line, cancel, retry, mark done, or show its agent's terminal. */
  queueTaskAction: [{ taskId: string; action: QueueTaskAction }, void];
  /** The queue's buttons: pause, resume, Queue Tasks…, Land Finished Work…. */
  queueControl: [{ action: QueueControl }, void];
};

export type QueuePush =
  /** The queue as it is now (null: there is none). */
  { type: "queueState"; queue: QueueView | null };

export type QueueProtocol = { requests: QueueRequests; push: QueuePush };

export type QueueMessage = PageMessage<QueueRequests>;

export type QueueHandlers = PageHandlers<QueueRequests>;

function buildQueueSchema() {
  return z.discriminatedUnion("type", [
    pageMessage("queueReady", {}),
    pageMessage("queueTaskAction", { taskId: boundedId(), action: z.enum(["moveUp", "moveDown", "cancel", "retry", "markDone", "focus"]) }),
    pageMessage("queueControl", { action: z.enum(["pause", "resume", "add", "land"]) }),
  ]);
}

// The schema and the map hold the same messages: one added to either alone fails to compile.
type _SchemaMatchesMap = Holds<SameMessages<z.infer<ReturnType<typeof buildQueueSchema>>, QueueMessage>>;

export const QUEUE_PAGE: PageDefinition<QueueProtocol> = { view: "queue", name: "queue tab", parse: lazyPageParser<QueueMessage>(buildQueueSchema) };
