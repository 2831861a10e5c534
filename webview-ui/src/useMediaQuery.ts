/** Whether a CSS media query matches, kept up to date as the panel is resized. */
import { useCallback, useMemo, useSyncExternalStore } from "react";

function media(query: string): MediaQueryList | undefined {
  return typeof window.matchMedia === "function" ? window.matchMedia(query) : undefined;
}

/**
 * Whether a CSS media query matches now, kept up to date as the panel is resized. Read while
 * rendering (an external store), not set again by an effect after mounting: that second set, of the
 * same answer, cost a render of its own when the page renders its frame's messages at once (flushSync).
 */
export function useMediaQuery(query: string): boolean {
  // One list per query, read at each render and listened to (not a new matchMedia per render).
  const list = useMemo(() => media(query), [query]);
  const subscribe = useCallback(
    (onChange: () => void) => {
      list?.addEventListener("change", onChange);
      return () => list?.removeEventListener("change", onChange);
    },
    [list],
  );
  return useSyncExternalStore(subscribe, () => list?.matches ?? false);
}
