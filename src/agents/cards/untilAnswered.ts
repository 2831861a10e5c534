/**
 * A notification that asks the user for something stays until it is answered. VS Code closes a
 * notification when the user dismisses it and when an identical one is shown (it keeps one of
 * each message), and a closed one is gone from the notification centre: a permission prompt or
 * an approval still pending would then be asked nowhere but on a card the user cannot see. So a
 * notification closed without an answer while its question is still open is shown again; once the
 * question is answered elsewhere (the panel, the terminal) it is not. Bounded, so nothing can spin.
 */
export const MAX_SHOWS = 20;

export async function untilAnswered<T>(show: () => PromiseLike<T | undefined>, stillOpen: () => boolean, maxShows = MAX_SHOWS): Promise<T | undefined> {
  for (let shown = 0; shown < maxShows; shown++) {
    const choice = await show();
    if (choice !== undefined || !stillOpen()) return choice;
  }
  return undefined;
}

/**
 * `message`, told apart from the other open questions' messages (VS Code would close all but one
 * of identical notifications): "… (2)" for the second of its kind, and so on.
 */
export function distinctMessage(message: string, othersOpen: readonly string[]): string {
  let n = 1;
  let candidate = message;
  while (othersOpen.includes(candidate)) candidate = `${message} (${++n})`;
  return candidate;
}
