/**
 * The details' floor: the height of their header (name, status, and the pinned strip of Cancel /
 * Complete / Stop), kept as the details' least height. The overview above then gives up its height
 * (and scrolls) before that header is pushed out of the panel: with twelve agents in the default
 * panel, the call in flight's Complete stays on screen (issue 33). Measured, since the strip's
 * height is its calls': one line each. Set on the element itself, not through state: a resize
 * costs no render (the panel renders at most once a frame, frameBatch.ts).
 */
import { type RefObject, useLayoutEffect, useRef } from "react";

/** The header sits on the card's top edge; what shows of the card's border below it. */
const BELOW_HEADER_PX = 2;

/** A ref for the details' container, whose least height follows its header's (where a layout engine measures). */
export function useDetailFloor(detailId: string | undefined): RefObject<HTMLUListElement | null> {
  const container = useRef<HTMLUListElement>(null);
  useLayoutEffect(() => {
    const element = container.current;
    const header = element?.querySelector<HTMLElement>(".agent-card-header");
    if (!element || !header || typeof ResizeObserver === "undefined") return;
    const measure = () => void (element.style.minHeight = `${Math.ceil(header.getBoundingClientRect().height) + BELOW_HEADER_PX}px`);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(header);
    return () => observer.disconnect();
  }, [detailId]);
  return container;
}
