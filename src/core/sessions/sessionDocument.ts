/**
 * A session as a person reads it: prompts, replies, tool calls with their labels and outcomes
 * (a sub-agent's calls under its Subtask), errors, interrupts, compactions and turn ends. Built
 * from the same engine as the cards (replay: the same interpreter, sub-agent files merged by
 * time) and handed over in batches as it is read, so the first screen shows long before a big
 * session is read to its end. A call's outcome known only after its batch went out comes as an
 * update.
 */
import { replaySessions } from "../engine";
import { labelOnceRan } from "../labels";
import type { ToolOutcome, TranscriptEvent } from "../transcript";

/** Characters kept of one prompt or reply (the raw JSONL has the rest). */
export const MAX_TEXT_CHARS = 16_000;

export type SessionItem =
  | { kind: "prompt"; text: string; at?: number; turn: number; source: "user" | "task-notification" }
  | { kind: "reply"; text: string; at?: number }
  | { kind: "tool"; id: string; label: string; parent: string | null; outcome: ToolOutcome | "running"; at?: number }
  | { kind: "error"; text: string; at?: number }
  | { kind: "interrupt"; at?: number }
  | { kind: "compaction"; at?: number }
  | { kind: "turnEnd"; durationMs?: number; at?: number };

/** A call already handed over has ended: its outcome, and its words once it ran ("npm test", not "Running: npm test"). */
export interface ToolUpdate {
  id: string;
  outcome: ToolOutcome;
  label: string;
}

export interface SessionBatch {
  items: SessionItem[];
  /** Outcomes of calls already handed over. */
  updates: ToolUpdate[];
}

type ToolItem = Extract<SessionItem, { kind: "tool" }>;

/** An open call: its item, and the words it started with (its label once ended comes from them). */
interface OpenTool {
  item: ToolItem;
  label: string;
  action: string;
  name: string;
}

export interface DocumentOptions {
  /** Items per batch (default 400). */
  batchItems?: number;
  /** Stop early (the reader's view was closed). */
  cancelled?: () => boolean;
}

function cut(text: string): string {
  return text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}\n\n… (${text.length - MAX_TEXT_CHARS} more characters in the raw transcript)` : text;
}

class DocumentBuilder {
  private pending: SessionItem[] = [];
  private updates: ToolUpdate[] = [];
  private readonly openTools = new Map<string, OpenTool>();
  private turn = 0;
  items = 0;

  constructor(
    private readonly emit: (batch: SessionBatch) => void,
    private readonly batchItems: number,
  ) {}

  add(events: readonly TranscriptEvent[]): void {
    for (const event of events) this.addOne(event);
    if (this.pending.length >= this.batchItems) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0 && this.updates.length === 0) return;
    this.emit({ items: this.pending, updates: this.updates });
    this.pending = [];
    this.updates = [];
  }

  private push(item: SessionItem): void {
    this.pending.push(item);
    this.items++;
  }

  private addOne(event: TranscriptEvent): void {
    switch (event.kind) {
      case "prompt":
        this.push({ kind: "prompt", text: cut(event.text), at: event.at, turn: ++this.turn, source: event.source });
        return;
      case "assistantText":
        this.push({ kind: "reply", text: cut(event.text), at: event.at });
        return;
      case "toolStart": {
        const item: ToolItem = { kind: "tool", id: event.id, label: event.label, parent: event.parent, outcome: "running", at: event.at };
        this.openTools.set(event.id, { item, label: event.label, action: event.action, name: event.name });
        this.push(item);
        return;
      }
      case "toolEnd": {
        const open = this.openTools.get(event.id);
        if (!open) return;
        if (!event.revised) this.openTools.delete(event.id);
        const { item } = open;
        const label = labelOnceRan(event.outcome, open.label, open.action, open.name);
        // Still in the batch being built: set in place; already handed over: an update.
        if (this.pending.includes(item)) [item.outcome, item.label] = [event.outcome, label];
        else this.updates.push({ id: event.id, outcome: event.outcome, label });
        return;
      }
      case "apiError":
        if (event.final) this.push({ kind: "error", text: cut(event.message), at: event.at });
        return;
      case "interrupt":
        this.push({ kind: "interrupt", at: event.at });
        return;
      case "compaction":
        this.push({ kind: "compaction", at: event.at });
        return;
      case "turnEnd":
        this.push({ kind: "turnEnd", durationMs: event.durationMs, at: event.at });
        return;
      default:
    }
  }
}

/** Reads the session and hands it over in batches; resolves with the number of items once it is all read. */
export async function streamSessionDocument(
  transcriptPath: string,
  onBatch: (batch: SessionBatch) => void,
  opts: DocumentOptions = {},
): Promise<{ items: number; warnings: string[] }> {
  const builder = new DocumentBuilder(onBatch, opts.batchItems ?? 400);
  const result = await replaySessions([transcriptPath], {
    onStep: ({ events }) => {
      if (!opts.cancelled?.()) builder.add(events);
    },
  });
  builder.flush();
  return { items: builder.items, warnings: result.warnings };
}
