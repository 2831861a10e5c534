/** One shared one-second ticker for every running counter on screen. */
import { useEffect, useState } from "react";

// One shared 1 s interval for every running tool's counter, running only while a counter is on
// screen: the extension never re-sends a tool just because a second went by.
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function tick(): void {
  for (const listener of listeners) listener();
}

// A hidden webview's timers are throttled; catch up the moment it is seen again.
function onVisibility(): void {
  if (document.visibilityState === "visible") tick();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    timer = setInterval(tick, 1000);
    document.addEventListener("visibilitychange", onVisibility);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
      document.removeEventListener("visibilitychange", onVisibility);
    }
  };
}

/** `Date.now()`, refreshed every second while `live`; frozen (no timer) otherwise. */
export function useNow(live: boolean): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!live) return;
    setNow(Date.now());
    return subscribe(() => setNow(Date.now()));
  }, [live]);
  return now;
}
