// The Sessions list's client (page `sessions`), typed by src/shared/protocols/sessions.ts.
import type { SessionsProtocol, SessionsPush } from "../../../src/shared/protocols/sessions";
import { type PageClient, pushCheck, pushListener, sendMessage, sendRequest } from "./pageClient";

type Client = PageClient<SessionsProtocol>;

export const post: Client["post"] = sendMessage;
export const request = sendRequest as Client["request"];
export const onPush: Client["onPush"] = /* @__PURE__ */ pushListener(
  pushCheck<SessionsPush>({
    sessionsList: (m) => Array.isArray(m.sessions),
    sessionRow: (m) => typeof m.session === "object" && m.session !== null,
  }),
);
