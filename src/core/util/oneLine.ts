/** `text` on one line (whitespace runs collapsed, trimmed), at most `max` characters: cut ones end in "…". */
export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}
