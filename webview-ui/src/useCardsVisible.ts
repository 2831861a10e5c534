/** Tells the extension which agents' lines are on screen, so it notifies only about the others. */
import { type RefObject, useEffect } from "react";
import { post } from "./clients/panelClient";

/** Calm down scrolling: the set is sent once it settles. */
const SETTLE_MS = 200;

/**
 * Tells the extension which agents are on screen (their overview line at least half visible), so it notifies only
 * about the others (src/agents/cards/attention.ts). Sent when the set changes, and [] while the panel's
 * page is hidden. `agentIds` re-observes when cards come and go.
 */
export function useCardsVisible(list: RefObject<HTMLElement | null>, agentIds: string): void {
  useEffect(() => {
    const root = list.current;
    if (!root || typeof IntersectionObserver === "undefined") return;
    const visible = new Set<string>();
    let sent: string | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const send = () => {
      timer = undefined;
      const ids = document.visibilityState === "hidden" ? [] : [...visible].sort();
      const key = ids.join("\n");
      if (key === sent) return;
      sent = key;
      post({ type: "cardsVisible", ids });
    };
    const schedule = () => {
      if (timer === undefined) timer = setTimeout(send, SETTLE_MS);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = (entry.target as HTMLElement).dataset.agentId;
          if (!id) continue;
          if (entry.intersectionRatio >= 0.5) visible.add(id);
          else visible.delete(id);
        }
        schedule();
      },
      { threshold: [0, 0.5, 1] },
    );
    // An agent is in sight when its overview line is: its status and its prompts are there.
    for (const line of Array.from(root.querySelectorAll<HTMLElement>('[data-testid="agent-line"]'))) observer.observe(line);
    document.addEventListener("visibilitychange", schedule);
    return () => {
      observer.disconnect();
      document.removeEventListener("visibilitychange", schedule);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [list, agentIds]);
}
