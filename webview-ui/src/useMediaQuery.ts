/** Whether a CSS media query matches, kept up to date as the panel is resized. */
import { useEffect, useState } from "react";

function media(query: string): MediaQueryList | undefined {
  return typeof window.matchMedia === "function" ? window.matchMedia(query) : undefined;
}

/** Whether a CSS media query matches now, kept up to date as the panel is resized. */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => media(query)?.matches ?? false);
  useEffect(() => {
    const list = media(query);
    if (!list) return;
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener("change", update);
    return () => list.removeEventListener("change", update);
  }, [query]);
  return matches;
}
