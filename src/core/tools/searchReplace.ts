/**
 * The edit format of apply_diff: a list of {search, replace} pairs applied in order, each search
 * text found exactly once (or every time with replace_all). Agents write these reliably — it is
 * the shape of Claude Code's own Edit tool — where unified diffs with line numbers often drift.
 * A file with CRLF line ends also accepts search text written with LF.
 */
export interface Edit {
  search: string;
  replace: string;
  replace_all?: boolean;
}

export type EditOutcome = { ok: true; text: string; replacements: number } | { ok: false; message: string };

export function applyEdits(original: string, edits: readonly Edit[], fileLabel: string): EditOutcome {
  let text = original;
  let replacements = 0;
  const crlf = original.includes("\r\n");
  for (let i = 0; i < edits.length; i++) {
    const edit = edits[i] as Edit;
    const which = `edit ${i + 1} of ${edits.length}`;
    let search = edit.search;
    let replace = edit.replace;
    if (crlf && !text.includes(search) && !search.includes("\r\n")) {
      search = search.replace(/\n/g, "\r\n");
      replace = replace.replace(/\r?\n/g, "\r\n");
    }
    const count = occurrences(text, search);
    if (count === 0) {
      return {
        ok: false,
        message:
          `${which} does not apply: its search text was not found in ${fileLabel}${i > 0 ? " (after the edits before it)" : ""}. It begins: ` +
          `${JSON.stringify(firstLine(edit.search))}. Read the file again and copy the text exactly, whitespace and indentation included.`,
      };
    }
    if (count > 1 && !edit.replace_all) {
      return {
        ok: false,
        message:
          `${which} does not apply: its search text occurs ${count} times in ${fileLabel}. Include more surrounding lines to make it unique, ` +
          `or set replace_all: true to replace every one.`,
      };
    }
    text = edit.replace_all ? text.split(search).join(replace) : text.replace(search, () => replace);
    replacements += edit.replace_all ? count : 1;
  }
  return { ok: true, text, replacements };
}

function occurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at >= 0; at = text.indexOf(search, at + search.length)) count++;
  return count;
}

function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== "") ?? text;
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
