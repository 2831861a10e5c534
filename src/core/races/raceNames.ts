/**
 * A race's short name, from its task: the first few words, lower case, as a worktree name takes
 * them (`Fix the login redirect!` → `fix-the-login-redirect`), made unique against the worktrees
 * and branches that exist (`…-b`, `…-c`): members are `<name>-1…N`, each a worktree and a branch.
 */

const WORDS = 4;
const MAX_CHARS = 30;

export function taskNameFrom(prompt: string): string {
  const words = prompt
    // Accents go with their letter (é → e), not into the gaps between words.
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, " ")
    .split(/[\s-]+/)
    .filter((w) => w !== "");
  let name = "";
  for (const word of words.slice(0, WORDS)) {
    const next = name ? `${name}-${word}` : word;
    if (next.length > MAX_CHARS) break;
    name = next;
  }
  return name || "task";
}

/** `base`, or `base-b`, `base-c`… : the first whose members' names (`<name>-1…count`) are all free. */
export function freeTaskName(base: string, count: number, taken: (worktreeName: string) => boolean): string {
  for (let i = 0; ; i++) {
    const name = i === 0 ? base : `${base}-${suffix(i)}`;
    let free = true;
    for (let n = 1; n <= count && free; n++) free = !taken(`${name}-${n}`);
    if (free) return name;
  }
}

/** b, c, … z, ba, bb…: letters, not digits, so `fix-b-1` never reads as a member number of `fix`. */
function suffix(i: number): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  let n = i;
  let out = "";
  do {
    out = letters[n % 26] + out;
    n = Math.floor(n / 26);
  } while (n > 0);
  return out;
}
