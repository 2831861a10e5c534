/** "1 file", "2 files": a count with its word in the right number, so no message says "1 file(s)". */

/** `n` and `word`, the word plural unless `n` is 1 (`pluralWord` for irregular ones: "1 entry", "2 entries"). */
export function countOf(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}
