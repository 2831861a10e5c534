/**
 * Messages from the webview: validated (they are untrusted input), then turned into actions.
 * Anything that does not fit the protocol is logged and ignored.
 */
import { parseWebviewMessage, type WebviewMessage } from "../shared/protocol";
import type { Log } from "../agents/ports";
import { errorMessage } from "../core/util/errorMessage";

export type WebviewActions = { [K in WebviewMessage["type"]]: (message: Extract<WebviewMessage, { type: K }>) => void | Promise<void> };

export function createMessageRouter(actions: WebviewActions, log: Log): (raw: unknown) => Promise<void> {
  return async (raw) => {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      log.warn(`ignored a message from the panel that does not fit the protocol: ${parsed.error}`);
      return;
    }
    const message = parsed.message;
    try {
      await (actions[message.type] as (m: WebviewMessage) => void | Promise<void>)(message);
    } catch (err) {
      log.error(`panel action ${message.type} failed: ${errorMessage(err)}`);
    }
  };
}
