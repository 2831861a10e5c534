/** Connects a page to the extension: its pushes to the page's reducer, then its ready message. */
import { useEffect } from "react";

/**
 * Every page's link to the extension: its client's pushes (clients/) go to `dispatch`, and once
 * listening, the page says it is ready (`ready`: a request whose answer is the page's state now,
 * dispatched like a push, or a message whose answer comes as pushes): nothing can arrive before
 * anyone hears it.
 */
export function useExtensionMessages<Push>(
  onPush: (listener: (push: Push) => void) => () => void,
  dispatch: (push: Push) => void,
  ready: () => Promise<Push> | void,
): void {
  useEffect(() => {
    const stop = onPush(dispatch);
    // A failed answer (the extension reloading) leaves the pushes to bring the state.
    ready()?.then(dispatch, () => undefined);
    return stop;
    // Once per page: `ready` is a constant message and `dispatch` a reducer's (stable).
  }, []);
}
