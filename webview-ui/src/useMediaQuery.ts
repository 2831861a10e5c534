/** Whether a CSS media query matches, kept up to date as the panel is resized. */
import { useCallback, useSyncExternalStore } from "react";

function media(query: string): MediaQueryList | undefined {
  return typeof window.matchMedia === "function" ? window.matchMedia(query) : undefined;
}

/**
 * Whether a CSS media query matches now, kept up to date as the panel is resized. Read while
 * rendering (an external store), not set again by an effect after mounting: that second set, of the
 * same answer, cost a render of its own when the page renders its frame's messages at once (flushSync).
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = media(query);
      list?.addEventListener("change", onChange);
      return () => list?.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => media(query)?.matches ?? false);
}
