/**
 * When the card store flushes: at most once a frame. The first change after a quiet frame is
 * composed at the next turn of the event loop (what one tick changed is one composition, as the
 * microtask it replaced), later ones wait for the frame's end. Why: fifty busy agents each send a
 * burst of news per step (a PreToolUse hook, the transcript line, the PostToolUse hook, its result
 * line, a status file) a few ms apart; composed on a microtask each was a composition, a deep
 * comparison and a copy per card (about 20 a turn, a tenth of the host's CPU). A frame (16 ms, the
 * panel's own pace, vscode/panel/cardFeed.ts) holds most of a burst: nobody sees a card sooner, and
 * `cards()` / `card()` still compose what is marked before they answer.
 */
import { type Clock, monotonicClock } from "../../core/util";

/** A frame at 60 Hz: what the panel paints at most (the same as the panel feed's CARD_FRAME_MS). */
export const CARD_STORE_FRAME_MS = 16;

/** A `schedule` for the card store: one flush a frame at most, on `clock` (monotonic: intervals only). */
export function oncePerFrame(frameMs = CARD_STORE_FRAME_MS, clock: Clock = monotonicClock): (flush: () => void) => void {
  let lastFlush = Number.NEGATIVE_INFINITY;
  return (flush) => {
    clock.setTimeout(
      () => {
        lastFlush = clock.now();
        flush();
      },
      Math.max(0, lastFlush + frameMs - clock.now()),
    );
  };
}
