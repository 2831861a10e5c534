// A session reader's client (page `session`), typed by src/shared/protocols/reader.ts.
import type { ReaderProtocol, ReaderPush } from "../../../src/shared/protocols/reader";
import { type PageClient, pushCheck, pushListener, sendMessage, sendRequest } from "./pageClient";

type Client = PageClient<ReaderProtocol>;

export const post: Client["post"] = sendMessage;
export const request = sendRequest as Client["request"];
export const onPush: Client["onPush"] = /* @__PURE__ */ pushListener(
  pushCheck<ReaderPush>({ sessionItems: (m) => Array.isArray(m.items) && Array.isArray(m.updates) }),
);
