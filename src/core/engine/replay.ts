/**
 * Replay: run finished transcripts through the same engine the panel uses, with a manual clock
 * that follows the records' timestamps and, at the end, runs past every pending timer.
 *
 * Several files are consecutive sessions of one agent (before and after `/clear`): each gets a
 * fresh engine, and the previous one ends its session (closing what was left open) first.
 * A session's sub-agent files are merged into its stream by timestamp, each file in its own order.
 */
import type { AgentState } from "../agent";
import { foldToolCall, type ToolCall } from "../agent";
import type { TranscriptEvent } from "../transcript";
import { findSubagentFiles, type Json, type LineStats, MAIN, newLineStats, type RecordSource, RecordStream, timestampOf } from "../transcript";
import { errorMessage, ManualClock } from "../util";
import { SessionEngine } from "./sessionEngine";

export interface ReplayStep {
  file: string;
  events: readonly TranscriptEvent[];
  state: AgentState;
}

export interface ReplayOptions {
  /** Called after every batch of events and after every timer that changed the state. */
  onStep?: (step: ReplayStep) => void;
  idleDelayMs?: number;
  /**
   * Run past every pending timer at the end of input (the default, as for a finished session).
   * Off, the state is the one a live follower would show the moment the last line arrived.
   */
  finishTimers?: boolean;
  /** Lines longer than this are dropped, counted in `stats.oversized` (default: the reader's 64 MB). */
  maxLineBytes?: number;
  /** Bytes read at a time (default 4 MB). */
  chunkBytes?: number;
}

export interface ReplayResult {
  calls: ToolCall[];
  final: AgentState;
  stats: LineStats;
  /** Sub-agent entries left out because they could not be read, one line each (for stderr). */
  warnings: string[];
}

interface Source {
  stream: RecordStream;
  source: RecordSource;
  head: Json | undefined;
  lastAt: number;
  /** Lines dropped (oversized) between the record before `head` and `head`: told to the engine before it. */
  droppedBeforeHead: number;
}

/**
 * A sub-agent file that fails mid-way (removed, its permissions changed) ends there with a warning:
 * only the session's own file is worth failing the replay for.
 */
async function advance(src: Source, stats: LineStats, warn: (message: string) => void): Promise<void> {
  const oversizedBefore = stats.oversized;
  try {
    src.head = await src.stream.next();
  } catch (err) {
    if (src.source.kind === "main") throw err;
    src.head = undefined;
    warn(`sub-agent file ${src.stream.path} left unfinished: ${errorMessage(err)}`);
    return;
  }
  // Sources are advanced one at a time, so what this advance added to the shared count is this file's.
  src.droppedBeforeHead += stats.oversized - oversizedBefore;
  const at = src.head ? timestampOf(src.head) : undefined;
  if (at !== undefined) src.lastAt = at;
}

/** The source whose next record comes first; the main file wins ties, files keep their order. */
function earliest(sources: Source[]): Source | undefined {
  let best: Source | undefined;
  for (const src of sources) {
    if (!src.head) continue;
    if (!best || src.lastAt < best.lastAt) best = src;
  }
  return best;
}

async function isStandaloneSubagentFile(path: string, stats: LineStats): Promise<boolean> {
  const probe = new RecordStream(path, stats, 64 * 1024);
  const first = await probe.next();
  return first?.isSidechain === true;
}

export async function replaySessions(files: readonly string[], opts: ReplayOptions = {}): Promise<ReplayResult> {
  const stats = newLineStats();
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(message);
  const calls = new Map<string, ToolCall>();
  let engine: SessionEngine | undefined;
  let clock = new ManualClock();

  for (const [index, file] of files.entries()) {
    if (engine) {
      clock.runAll();
      for (const event of engine.endSession()) foldToolCall(calls, event);
      engine.dispose();
    }
    clock = new ManualClock();
    const standalone = await isStandaloneSubagentFile(file, newLineStats());
    engine = new SessionEngine({ clock, idleDelayMs: opts.idleDelayMs, standalone });
    const current = engine;
    current.onDidChange(({ state, events }) => {
      for (const event of events) foldToolCall(calls, event);
      opts.onStep?.({ file, events, state });
    });

    const sources: Source[] = [
      { stream: new RecordStream(file, stats, opts.chunkBytes, opts.maxLineBytes), source: MAIN, head: undefined, lastAt: -Infinity, droppedBeforeHead: 0 },
    ];
    if (!standalone) {
      for (const sub of await findSubagentFiles(file, (path, reason) => warn(`skipped sub-agent entry ${path}: ${reason}`))) {
        if (sub.parentToolId) current.interpreter.linkSubagent(sub.agentId, sub.parentToolId);
        sources.push({
          stream: new RecordStream(sub.path, stats, opts.chunkBytes, opts.maxLineBytes),
          source: { kind: "subagent", agentId: sub.agentId, parentToolId: sub.parentToolId },
          head: undefined,
          lastAt: -Infinity,
          droppedBeforeHead: 0,
        });
      }
    }
    for (const src of sources) await advance(src, stats, warn);
    for (let src = earliest(sources); src; src = earliest(sources)) {
      const record = src.head as Json;
      const at = timestampOf(record);
      if (at !== undefined) clock.set(at);
      current.linesDropped(src.droppedBeforeHead);
      src.droppedBeforeHead = 0;
      current.ingest([record], src.source);
      await advance(src, stats, warn);
    }
    // Lines dropped after a file's last record still count for what closes at the session's end.
    for (const src of sources) current.linesDropped(src.droppedBeforeHead);
    if (index === files.length - 1 && opts.finishTimers !== false) clock.runAll();
  }
  if (!engine) throw new Error("replay needs at least one transcript file");
  const final = engine.state;
  engine.dispose();
  return { calls: [...calls.values()], final, stats, warnings };
}
