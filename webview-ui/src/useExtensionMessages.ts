import { useEffect } from "react";
import type { ExtensionMessage, WebviewMessage } from "../../src/shared/protocol";
import { isExtensionMessage } from "./store";
import { post } from "./vscodeApi";

/**
 * Every page's link to the extension: well-formed messages go to `dispatch`, and once listening,
 * the page says it is ready (`ready`): the answer cannot arrive before anyone hears it.
 */
export function useExtensionMessages(dispatch: (message: ExtensionMessage) => void, ready: WebviewMessage): void {
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (isExtensionMessage(event.data)) dispatch(event.data);
    };
    window.addEventListener("message", onMessage);
    post(ready);
    return () => window.removeEventListener("message", onMessage);
    // Once per page: `ready` is a constant message and `dispatch` a reducer's (stable).
  }, []);
}
