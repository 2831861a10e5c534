/** Lets a finishing button (Cancel, Allow, Restart) send once, whatever the clicks. */
import { useCallback, useRef, useState } from "react";

/**
 * For buttons that finish something (Cancel, Allow, Restart): the first click runs `send`, any
 * later one does nothing, and `sent` disables the buttons. The ref, not the state, is the guard:
 * a double click delivers its second click before React has re-rendered with `sent`.
 * The owner is keyed by what it acts on, so a new call or prompt starts fresh.
 */
export function useSendOnce(): { sent: boolean; once: (send: () => void) => void; reset: () => void } {
  const done = useRef(false);
  const [sent, setSent] = useState(false);
  const once = useCallback((send: () => void) => {
    if (done.current) return;
    done.current = true;
    setSent(true);
    send();
  }, []);
  const reset = useCallback(() => {
    done.current = false;
    setSent(false);
  }, []);
  return { sent, once, reset };
}
