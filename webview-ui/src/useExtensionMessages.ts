import { useEffect } from "react";

/**
 * Every page's link to the extension: its client's pushes (clients/) go to `dispatch`, and once
 * listening, the page says it is ready (`ready`): the answer cannot arrive before anyone hears it.
 */
export function useExtensionMessages<Push, Message>(
  client: { onPush(listener: (push: Push) => void): () => void; post(message: Message): void },
  dispatch: (push: Push) => void,
  ready: NoInfer<Message>,
): void {
  useEffect(() => {
    const stop = client.onPush(dispatch);
    client.post(ready);
    return stop;
    // Once per page: `ready` is a constant message and `dispatch` a reducer's (stable).
  }, []);
}
