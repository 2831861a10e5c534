/** The extension's messages to a page, applied together once a frame: a burst of them is one render. */

/** How a page waits for its next frame; the browser's, unless a test drives the frames. */
export type FrameScheduler = (callback: () => void) => void;

const nextFrame: FrameScheduler = (callback) => void requestAnimationFrame(() => callback());

/**
 * A hidden or occluded page gets no frames (Chromium pauses them), and a visible one in a nested
 * webview frame sometimes gets its next one late: its messages still apply within this time, so a
 * row is never a quarter of a second late (the e2e saw one at 347 ms with 250 here) and what a
 * hidden page saves for a re-show stays current.
 */
export const FRAMELESS_FLUSH_MS = 50;

/**
 * Returns where to deliver each message: they queue, in order, and `apply` gets them all at the next
 * frame (or after FRAMELESS_FLUSH_MS when no frame comes). The page renders once for the lot,
 * where a message each cost a render each (fifty busy agents send one a frame, and more in bursts).
 */
export function frameBatcher<M>(apply: (messages: M[]) => void, frame: FrameScheduler = nextFrame): (message: M) => void {
  let pending: M[] = [];
  let fallback: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (fallback !== undefined) clearTimeout(fallback);
    fallback = undefined;
    if (pending.length === 0) return;
    const messages = pending;
    pending = [];
    apply(messages);
  };
  return (message) => {
    pending.push(message);
    if (pending.length > 1) return;
    frame(flush);
    fallback = setTimeout(flush, FRAMELESS_FLUSH_MS);
  };
}
