/**
 * The files an agent changed in its session, derived from its transcript (never kept elsewhere):
 * its edit tools (Edit, Write, MultiEdit, NotebookEdit, Arcadia's write_file / apply_diff) whose
 * call ended `done`. `SessionEdits` is the pure fold over events; `SessionEditsReader` feeds it
 * the transcript incrementally (by byte offset, new lines only), so a count after each turn reads
 * only what the turn wrote. The main thread's edits: a sub-agent's live in its own file.
 */
import { editTarget } from "../toolDeclarations";
import type { TranscriptEvent } from "./events";
import { TranscriptInterpreter } from "./interpreter";
import { LineReader } from "./lineReader";
import { newLineStats, parseLine } from "./parseLine";

/** Files remembered per session (the card shows how many; past this the count stops growing). */
export const MAX_EDITED_FILES = 5000;
/** Edits started and not yet ended, remembered at most. */
const MAX_OPEN_EDITS = 1000;

export class SessionEdits {
  private readonly open = new Map<string, string>();
  readonly files = new Set<string>();

  constructor(private readonly cwd: string) {}

  /** True when the set of files changed. */
  apply(events: readonly TranscriptEvent[]): boolean {
    let changed = false;
    for (const event of events) {
      if (event.kind === "toolStart") {
        const path = editTarget(event.name, event.input, this.cwd);
        if (path === undefined) continue;
        if (this.open.size >= MAX_OPEN_EDITS) this.open.delete(this.open.keys().next().value!);
        this.open.set(event.id, path);
      } else if (event.kind === "toolEnd") {
        const path = this.open.get(event.id);
        if (path === undefined) continue;
        this.open.delete(event.id);
        if (event.outcome !== "done" || this.files.has(path) || this.files.size >= MAX_EDITED_FILES) continue;
        this.files.add(path);
        changed = true;
      }
    }
    return changed;
  }
}

export class SessionEditsReader {
  private readonly reader: LineReader;
  private interpreter = new TranscriptInterpreter();
  private edits: SessionEdits;
  private readonly stats = newLineStats();

  constructor(
    readonly transcriptPath: string,
    private readonly cwd: string,
  ) {
    this.reader = new LineReader(transcriptPath);
    this.edits = new SessionEdits(cwd);
  }

  get files(): ReadonlySet<string> {
    return this.edits.files;
  }

  /** Reads what the transcript gained since the last call; true when the files changed. A rewritten file is read again from its start. */
  async advance(): Promise<boolean> {
    let changed = false;
    for (;;) {
      const result = await this.reader.read();
      if (result.reset) {
        changed = this.edits.files.size > 0;
        this.interpreter = new TranscriptInterpreter();
        this.edits = new SessionEdits(this.cwd);
      }
      for (const line of result.lines) {
        const record = parseLine(line, this.stats);
        if (record !== undefined && this.edits.apply(this.interpreter.handle(record))) changed = true;
      }
      if (!result.more) return changed;
    }
  }
}
