/**
 * The unchecked items of a Markdown task list, as tasks. What a person reading the list would
 * count as still to do:
 * - `- [ ] …` (also `*`, `+`, `1.`, `1)`) at any depth; `[x]`/`[X]` items are done, never queued;
 * - an unchecked item with unchecked items under it is their heading, not a task: each of them is
 *   queued with the words of the items above it before its own ("Auth: add login"), so it reads alone;
 * - lines that continue an item (indented under it, or following it directly) are part of it, and
 *   plain items under a task (`- the redirect drops ?next`) are its details ("…; the redirect…");
 * - nothing inside a code fence (``` or ~~~) is an item; CRLF, CR and a BOM read as LF.
 */
import type { TaskDraft, TaskSourceRead } from "./taskSources";
import { typedTextProblem } from "../launch";

type Kind = "unchecked" | "checked" | "plain";

interface Item {
  kind: Kind;
  indent: number;
  line: number;
  words: string[];
  parent: Item | undefined;
  children: Item[];
}

const ITEM = /^(\s*)(?:[-*+]|\d{1,9}[.)])(?:\s+|$)(?:\[([ xX])\](?=\s|$))?\s*(.*)$/;
const FENCE = /^\s*(`{3,}|~{3,})/;

const width = (indent: string) => indent.replace(/\t/g, "    ").length;

function parseItems(text: string): Item[] {
  const items: Item[] = [];
  let fence: string | null = null;
  let last: Item | undefined;
  let blankBefore = false;
  text
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\r|\n/)
    .forEach((raw, i) => {
      const fenceMark = FENCE.exec(raw)?.[1];
      if (fence !== null) {
        if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length && raw.trim() === fenceMark) fence = null;
        return;
      }
      if (fenceMark) {
        fence = fenceMark;
        return;
      }
      if (raw.trim() === "") {
        blankBefore = true;
        return;
      }
      const match = ITEM.exec(raw);
      const indent = width(raw.match(/^\s*/)![0]);
      if (match) {
        const kind: Kind = match[2] === undefined ? "plain" : match[2] === " " ? "unchecked" : "checked";
        let parent = last;
        while (parent && parent.indent >= indent) parent = parent.parent;
        const item: Item = { kind, indent, line: i + 1, words: [match[3]!.trim()].filter(Boolean), parent, children: [] };
        parent?.children.push(item);
        items.push(item);
        last = item;
      } else if (last && (indent > last.indent || !blankBefore)) {
        last.words.push(raw.trim());
      } else {
        // A paragraph outside any list ends the list: what follows starts afresh.
        last = undefined;
      }
      blankBefore = false;
    });
  return items;
}

const itemText = (item: Item) => item.words.join(" ");
const hasOpenChild = (item: Item): boolean => item.children.some((c) => c.kind === "unchecked" || (c.kind === "plain" && hasOpenChild(c)));

function headings(item: Item): string[] {
  const out: string[] = [];
  for (let p = item.parent; p; p = p.parent) if (itemText(p) !== "") out.unshift(itemText(p));
  return out;
}

function details(item: Item): string[] {
  return item.children.filter((c) => c.kind === "plain").flatMap((c) => [itemText(c), ...details(c)].filter(Boolean));
}

export function tasksFromTaskList(text: string): TaskSourceRead {
  const items = parseItems(text);
  const drafts: TaskDraft[] = [];
  for (const item of items) {
    if (item.kind !== "unchecked" || hasOpenChild(item)) continue;
    const own = itemText(item);
    if (own === "") {
      drafts.push({ text: "", line: item.line, problem: "An empty task: write what to ask after - [ ]." });
      continue;
    }
    const words = [...headings(item), own].join(": ");
    const full = [words, ...details(item)].join("; ");
    const problem = typedTextProblem(full);
    drafts.push(problem ? { text: full, line: item.line, problem } : { text: full, line: item.line });
  }
  if (drafts.length > 0) return { drafts };
  const checked = items.filter((i) => i.kind === "checked").length;
  return {
    drafts,
    nothing:
      checked > 0
        ? `No unchecked item (- [ ] …): all ${checked} ${checked === 1 ? "item is" : "items are"} checked, nothing to queue.`
        : "No task list item (- [ ] …) in it: write one task per line as - [ ] what to ask.",
  };
}
