// The queue tab's client (page `queue`), typed by src/shared/protocols/queue.ts.
import type { QueuePush, QueueProtocol } from "../../../src/shared/protocols/queue";
import { type PageClient, pushCheck, pushListener, sendMessage, sendRequest } from "./pageClient";

type Client = PageClient<QueueProtocol>;

export const post: Client["post"] = sendMessage;
export const request = sendRequest as Client["request"];
export const onPush: Client["onPush"] = /* @__PURE__ */ pushListener(
  pushCheck<QueuePush>({
    queueState: (m) => m.queue === null || (typeof m.queue === "object" && Array.isArray((m.queue as { tasks?: unknown }).tasks)),
  }),
);
