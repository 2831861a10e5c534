// The panel's client (page `agents`): its messages and pushes as src/shared/protocols/panel.ts types them.
import type { PanelProtocol } from "../../../src/shared/protocols/panel";
import { isExtensionMessage } from "../store";
import { type PageClient, pushListener, sendMessage, sendRequest } from "./pageClient";

type Client = PageClient<PanelProtocol>;

export const post: Client["post"] = sendMessage;
export const request = sendRequest as Client["request"];
export const onPush: Client["onPush"] = /* @__PURE__ */ pushListener(isExtensionMessage);
