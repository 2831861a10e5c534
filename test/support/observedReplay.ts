/**
 * A recorded scenario replayed through the extension's own agent machinery, as Arcadia saw it live
 * and as it sees it after a window reload: fake terminals and a driven process monitor, the real
 * AgentManager, HookToolFeed, hook sync and call waits, and the real transcript files cut at a
 * checkpoint. What an observing scenario recorded (hooks.ndjson, timeline.ndjson: test/rig/observe.ts)
 * is fed up to the checkpoint's moment; a scenario recorded without them is its transcript alone.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { vi } from "vitest";
import { AgentManager } from "../../src/agents/agent/agentManager";
import { followHookTools } from "../../src/agents/hooks/hookToolsSync";
import { ToolWaits } from "../../src/agents/cards/toolWaits";
import type { ClaudeProcessState } from "../../src/agents/ports";
import { HookToolFeed } from "../../src/core/hooks/hookToolFeed";
import { ManualClock } from "../../src/core/util/clock";
import { Emitter } from "../../src/core/util/emitter";
import type { AgentFacts } from "../../src/shared/protocol";
import type { TimelineEntry } from "../rig/observe";
import { FakeProcessMonitor, FakeTerminalHost, MemoryStore, memoryLog } from "./fakeTerminals";
import { type HookInput, isHookEventName } from "../../src/core/server";
import { type Checkpoint, loadScenario, type RecordedScenario } from "./recorded";

const AGENT = "agent-1";
const SHELL_PID = 4000;
const CLAUDE = { command: "claude", args: [] };

export interface Observed {
  /** Every hook the recording captured, Arcadia's and others (Stop, SessionStart…). */
  hooks: { at: number; input: Record<string, unknown> & { hook_event_name: string; session_id: string } }[];
  timeline: TimelineEntry[];
}

const ndjson = <T>(file: string): T[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);

export function loadObserved(s: RecordedScenario): Observed | undefined {
  const hooks = join(s.dir, "hooks.ndjson");
  return existsSync(hooks) ? { hooks: ndjson(hooks), timeline: ndjson(join(s.dir, "timeline.ndjson")) } : undefined;
}

/** What the status file said at `at` (the newest sample before it), as the process monitor reports it. */
export function processAt(observed: Observed | undefined, at: number): ClaudeProcessState {
  // Recorded without a timeline: a claude runs, its status file unknown (the card goes by its transcript).
  if (!observed) return { state: "running", pid: 1 };
  const status = observed.timeline.filter((e) => e.at <= at && e.status !== undefined).at(-1)?.status;
  if (!status?.status) return { state: "none" };
  return {
    state: "running",
    pid: 1,
    sessionId: status.sessionId,
    status: status.status as "idle" | "busy" | "waiting",
    waitingFor: status.waitingFor,
    statusUpdatedAt: status.statusUpdatedAt,
  };
}

/** The card as the live extension showed it at the checkpoint, and the same card after a window reload. */
export interface BeforeAndAfter {
  before: AgentFacts;
  /** Restored, its terminal not back yet: read from its transcript's tail. */
  reconnecting: AgentFacts;
  /** Restored and bound to its terminal and claude again. */
  after: AgentFacts;
}

export async function beforeAndAfterReload(scenario: string, checkpoint: string): Promise<BeforeAndAfter> {
  const recorded = loadScenario(scenario);
  const observed = loadObserved(recorded);
  const cp = recorded.checkpoints.find((c) => c.name === checkpoint);
  if (!cp) throw new Error(`${scenario} has no checkpoint ${checkpoint}`);
  const at = cp.at ?? Number.POSITIVE_INFINITY;
  const projectDir = mkdtempSync(join(tmpdir(), `arcadia-reload-${scenario}-`));
  const sessionId = recorded.sessions[0]!;
  const store = new MemoryStore();

  const live = agents(store, projectDir, sessionId, processAt(observed, at));
  try {
    feedHooks(live, observed, at);
    await live.manager.open(CLAUDE, "/home/user/project");
    // The files grow as the CLI wrote them, each step read before the next (a sub-agent's file is
    // found while it is written, not after its parent's later records, as a live follower sees it).
    for (const lines of growth(recorded, observed, cp)) {
      writeLines(recorded.dir, projectDir, lines);
      await quiet(live.manager);
    }
    const before = await settled(live);
    const reloaded = agents(store, projectDir, sessionId, processAt(observed, at));
    try {
      await reloaded.manager.restore();
      const reconnecting = await vi.waitFor(() => {
        const view = reloaded.views()[0];
        if (!view?.reconnecting || view.status === "starting") throw new Error("still reading its transcript's tail");
        return view;
      });
      reloaded.host.revive(before.name, SHELL_PID);
      await vi.waitFor(() => {
        if (reloaded.views()[0]?.reconnecting !== false) throw new Error("not bound again yet");
      });
      const after = await settled(reloaded);
      return { before, reconnecting, after };
    } finally {
      await reloaded.dispose();
    }
  } finally {
    await live.dispose();
    rmSync(projectDir, { recursive: true, force: true });
  }
}

/** Line counts per file, step by step up to the checkpoint: each time a file appeared (the timeline, else the checkpoints), then the checkpoint. */
function growth(recorded: RecordedScenario, observed: Observed | undefined, cp: Checkpoint): Record<string, number>[] {
  const steps: Record<string, number>[] = [];
  const files = (lines: Record<string, number>) =>
    Object.keys(lines)
      .filter((f) => (lines[f] ?? 0) > 0)
      .sort()
      .join("|");
  if (observed) {
    for (const entry of observed.timeline) {
      if (!entry.lines || entry.at > (cp.at ?? Number.POSITIVE_INFINITY)) continue;
      if (files(entry.lines) !== files(steps.at(-1) ?? {})) steps.push(entry.lines);
    }
  } else {
    for (const c of recorded.checkpoints) {
      if (c.name === cp.name) break;
      steps.push(c.lines);
    }
  }
  return [...steps, cp.lines];
}

/** Each recorded file as its first `lines[file]` lines (a file not there yet is not written; its meta file comes with it). */
function writeLines(from: string, to: string, lines: Record<string, number>): void {
  for (const [rel, count] of Object.entries(lines)) {
    if (count <= 0) continue;
    const text = readFileSync(join(from, rel), "utf8").split("\n").slice(0, count);
    mkdirSync(dirname(join(to, rel)), { recursive: true });
    const meta = join(from, rel.replace(/\.jsonl$/, ".meta.json"));
    if (existsSync(meta) && meta !== join(from, rel)) copyFileSync(meta, join(to, rel.replace(/\.jsonl$/, ".meta.json")));
    writeFileSync(join(to, rel), `${text.join("\n")}\n`);
  }
}

/** Until the agents have been quiet for a moment: what was written has been read. */
async function quiet(manager: AgentManager, quietMs = 100, maxMs = 3000): Promise<void> {
  const started = Date.now();
  let last = Date.now();
  const a = manager.onDidTouch(() => (last = Date.now()));
  const b = manager.onDidReadTranscript(() => (last = Date.now()));
  try {
    while (Date.now() - last < quietMs && Date.now() - started < maxMs) await new Promise((r) => setTimeout(r, 10));
  } finally {
    a.dispose();
    b.dispose();
  }
}

interface Agents {
  manager: AgentManager;
  host: FakeTerminalHost;
  feed: HookToolFeed;
  feedClock: ManualClock;
  waits: ToolWaits;
  /** Every agent's part with what the hooks and waits add to it. */
  views(): AgentFacts[];
  setNow(at: number): void;
  dispose(): Promise<void>;
}

/** The extension's agent wiring for one window (extension.ts), on fakes: a reload is a new one on the same store. */
function agents(store: MemoryStore, projectDir: string, sessionId: string, process: ClaudeProcessState): Agents {
  const host = new FakeTerminalHost();
  const monitor = new FakeProcessMonitor();
  monitor.report(SHELL_PID, process);
  const feedClock = new ManualClock(0);
  const feed = new HookToolFeed({ clock: feedClock });
  let now = 0;
  const waits = new ToolWaits(() => now);
  const manager = new AgentManager({
    terminals: host,
    store,
    log: memoryLog(),
    projectDirFor: () => projectDir,
    newSessionId: () => sessionId,
    newAgentId: () => AGENT,
    clock: new ManualClock(),
    processes: monitor,
  });
  // What the card store adds to an agent's part (hook rows, waits, compaction), without a board.
  const view = (agentId: string) => {
    const session = manager.agentInfo(agentId)?.sessionId ?? "";
    return manager.view(agentId, {
      hookTools: feed.tools(agentId),
      waits: waits.of(agentId),
      compacting: feed.isCompacting(agentId, session),
      promptKinds: [],
    });
  };
  const views = () => manager.agentIds().flatMap((id) => view(id) ?? []);
  // The card store's changes as the hook sync follows them: an agent's part, told when touched.
  const changed = new Emitter<AgentFacts>();
  const removed = new Emitter<string>();
  const touches = manager.onDidTouch(({ agentId }) => {
    const facts = view(agentId);
    if (facts) changed.fire(facts);
  });
  const lifecycle = manager.onDidChange((change) => change.type === "removed" && removed.fire(change.id));
  const sessionOf = (id: string) => manager.agentInfo(id)?.sessionId;
  const sync = followHookTools({
    feed,
    onDidReadTranscript: manager.onDidReadTranscript,
    onDidChangeCard: changed.event,
    onDidRemoveCard: removed.event,
    sessionOf,
  });
  return {
    manager,
    host,
    feed,
    feedClock,
    waits,
    setNow: (at) => {
      now = at;
      if (at > feedClock.now()) feedClock.advanceTo(at);
    },
    views,
    dispose: async () => {
      sync.dispose();
      touches.dispose();
      lifecycle.dispose();
      await manager.dispose();
      feed.dispose();
    },
  };
}

/**
 * The hooks up to `until`, in order, into the feed at the times they came; the prompts they stand
 * for into the call waits the way the live board keeps them (core/hooks/permissionBroker.ts and
 * agents/cards/liveBoard.ts): a PermissionRequest opens its call's wait (the PreToolUse before it with
 * the same input), the status file leaving `waiting` closes it, a hook that the call ended after it marks it ran.
 */
function feedHooks(live: Agents, observed: Observed | undefined, until: number): void {
  if (!observed) return;
  const open = new Set<string>();
  const lastPre = new Map<string, string>();
  const leftWaiting = observed.timeline.filter((e) => e.status !== undefined && e.status?.status !== "waiting").map((e) => e.at);
  const events = [
    // The recording captured every event; Arcadia's settings register these (the route refuses the rest).
    ...observed.hooks.filter((h) => h.at <= until && isHookEventName(h.input.hook_event_name)).map((h) => ({ at: h.at, hook: h.input as HookInput })),
    ...leftWaiting.filter((at) => at <= until).map((at) => ({ at, hook: undefined })),
  ].sort((a, b) => a.at - b.at);
  for (const { at, hook } of events) {
    live.setNow(at);
    if (!hook) {
      if (open.size > 0) {
        open.clear();
        live.waits.promptsOpen(AGENT, new Set());
      }
      continue;
    }
    const key = JSON.stringify(hook.tool_input);
    if (hook.hook_event_name === "PreToolUse" && typeof hook.tool_use_id === "string") lastPre.set(key, hook.tool_use_id);
    if (hook.hook_event_name === "PermissionRequest" && lastPre.has(key)) {
      open.add(lastPre.get(key)!);
      live.waits.promptsOpen(AGENT, new Set(open));
    }
    if ((hook.hook_event_name === "PostToolUse" || hook.hook_event_name === "PostToolUseFailure") && typeof hook.tool_use_id === "string")
      live.waits.ran(AGENT, hook.tool_use_id);
    live.feed.observe(AGENT, hook);
  }
}

/** The card once its transcript has been read. */
async function settled(agents: Agents): Promise<AgentFacts> {
  await quiet(agents.manager);
  return vi.waitFor(() => {
    const view = agents.views()[0];
    if (!view || view.status === "starting") throw new Error("no card yet");
    return view;
  });
}
