/**
 * Tools as Claude Code's hooks tell them, before the transcript does. PreToolUse arrives just
 * before a tool runs and PostToolUse / PostToolUseFailure right after; the transcript gets the
 * same call (same `tool_use_id`) only when the CLI flushes the reply, seconds later under load.
 * This keeps, per agent, the calls the hooks announced that the transcript has not settled yet
 * (live state only: an entry goes once the transcript recorded its end, or its turn is over).
 * What a card shows from it is decided by a pure function (core/agent/hookRows.ts).
 *
 * Also from hooks: compaction (PreCompact → PostCompact), which the transcript shows only at
 * its end. The hooks of the CLI's side queries are not taken in: nothing they announce runs
 * (sideQuery.ts).
 *
 * Hook input is untrusted JSON from a process that holds the agent's token: every field is
 * checked, sizes are bounded, and nothing here can throw.
 */
import { type HookInput, otherHookEvent } from "../server";
import { type Clock, DisposableObject, Emitter, errorMessage, systemClock } from "../util";
import { isSideQuery } from "./sideQuery";

/** How a tool ended, by its hook: PostToolUse → done; PostToolUseFailure → error or interrupted; PermissionDenied → denied. */
export type HookToolOutcome = "done" | "error" | "interrupted" | "denied";

export interface HookTool {
  /** The transcript's tool_use id. */
  id: string;
  name: string;
  input: unknown;
  /** The session the call belongs to (the hook input's session_id). */
  sessionId: string;
  /** Set for a sub-agent's call: the hook input's `agent_id` (the sub-agent's transcript is agent-<id>.jsonl). */
  subagentId: string | null;
  /** When its PreToolUse arrived (the feed's clock, ms since the epoch); undefined if only its end was heard. */
  startedAt?: number;
  endedAt?: number;
  outcome?: HookToolOutcome;
  /**
   * An Agent call whose sub-agent runs on in the background: its PostToolUse comes at launch
   * (`tool_response.status: "async_launched"`, CLI 2.1.330), so it does not end it.
   */
  background?: true;
}

/** Open calls per agent are few (parallel tools, a few sub-agents); past this the oldest go. */
export const MAX_HOOK_TOOLS_PER_AGENT = 256;
const MAX_ID_LENGTH = 200;

interface AgentFeed {
  tools: Map<string, HookTool>;
  /** Session id → when PreCompact arrived; removed by PostCompact. */
  compacting: Map<string, number>;
}

export class HookToolFeed extends DisposableObject {
  private readonly agents = new Map<string, AgentFeed>();
  private readonly changed = this._register(new Emitter<string>((err) => this.log(`Hook tool listener failed: ${errorMessage(err)}`)));
  /** An agent's hook tools or compaction changed (its id). */
  readonly onDidChange = this.changed.event;
  private readonly clock: Clock;
  private readonly log: (message: string) => void;

  constructor(opts: { clock?: Clock; log?: (message: string) => void } = {}) {
    super();
    this.clock = opts.clock ?? systemClock;
    this.log = opts.log ?? (() => undefined);
  }

  /** Takes in one hook input (any event: those that say nothing about tools are ignored). */
  observe(agentId: string, input: HookInput): void {
    if (isSideQuery(input)) return;
    switch (input.hook_event_name) {
      case "PreToolUse":
        return this.started(agentId, input);
      case "PostToolUse":
        if (isAsyncLaunch(input.tool_response)) return this.launchedInBackground(agentId, input);
        return this.ended(agentId, input, "done");
      case "PostToolUseFailure":
        return this.ended(agentId, input, input.is_interrupt === true ? "interrupted" : "error");
      case "PermissionDenied":
        return this.ended(agentId, input, "denied");
      case "PreCompact":
        return this.compaction(agentId, input.session_id, true);
      case "PostCompact":
        return this.compaction(agentId, input.session_id, false);
      case "PermissionRequest":
        // Its call's row is already there (PreToolUse); the broker holds the prompt.
        return;
      default:
        return otherHookEvent(input, undefined);
    }
  }

  /**
   * Arcadia's own hook answer denied this call (the budget's gate, after the rows saw its
   * PreToolUse): it never runs, and no hook of the CLI's will say so. Its row ends "denied" now,
   * as a denial at Claude's prompt does, rather than showing it running until the transcript says.
   */
  refused(agentId: string, input: HookInput): void {
    if (isSideQuery(input)) return;
    this.ended(agentId, input, "denied");
  }

  /** The agent's calls the hooks announced and the transcript has not settled, oldest first. */
  tools(agentId: string): readonly HookTool[] {
    const feed = this.agents.get(agentId);
    return feed ? [...feed.tools.values()] : [];
  }

  /** PreCompact seen for this session and no PostCompact yet. */
  isCompacting(agentId: string, sessionId: string): boolean {
    return this.agents.get(agentId)?.compacting.has(sessionId) ?? false;
  }

  /** The transcript recorded these calls' ends: the hooks have nothing more to add about them. */
  settled(agentId: string, toolUseIds: Iterable<string>): void {
    const feed = this.agents.get(agentId);
    if (!feed) return;
    let changed = false;
    for (const id of toolUseIds) changed = feed.tools.delete(id) || changed;
    if (changed) this.fire(agentId);
  }

  /**
   * A turn of `sessionId` ended (or a new one began) at `at` (the record's time): calls announced
   * before it are over whatever the hooks said (a tool whose PostToolUse never came, a session
   * killed mid-tool). Later ones belong to the next turn and stay. Compaction ends with its turn.
   */
  turnOver(agentId: string, sessionId: string, at: number | undefined): void {
    const feed = this.agents.get(agentId);
    if (!feed) return;
    let changed = feed.compacting.delete(sessionId);
    for (const [id, tool] of feed.tools) {
      if (tool.sessionId !== sessionId) continue;
      if (at === undefined || (tool.startedAt ?? tool.endedAt ?? 0) <= at) changed = feed.tools.delete(id) || changed;
    }
    if (changed) this.fire(agentId);
  }

  /** Everything of sessions other than `sessionId` goes (the agent moved on: /clear, a new session). */
  keepOnly(agentId: string, sessionId: string): void {
    const feed = this.agents.get(agentId);
    if (!feed) return;
    let changed = false;
    for (const [id, tool] of feed.tools) if (tool.sessionId !== sessionId) changed = feed.tools.delete(id) || changed;
    for (const session of feed.compacting.keys()) if (session !== sessionId) changed = feed.compacting.delete(session) || changed;
    if (changed) this.fire(agentId);
  }

  /** Its claude is gone: what it left running is over. */
  processGone(agentId: string): void {
    const feed = this.agents.get(agentId);
    if (!feed || (feed.tools.size === 0 && feed.compacting.size === 0)) return;
    feed.tools.clear();
    feed.compacting.clear();
    this.fire(agentId);
  }

  forgetAgent(agentId: string): void {
    if (this.agents.delete(agentId)) this.fire(agentId);
  }

  override dispose(): void {
    super.dispose();
    this.agents.clear();
  }

  private started(agentId: string, input: HookInput): void {
    const id = toolUseIdOf(input);
    const name = stringField(input.tool_name);
    if (!id || !name) return;
    const feed = this.feedOf(agentId);
    const known = feed.tools.get(id);
    // Hooks of one call can arrive out of order (PostToolUse of a quick tool first): keep its end.
    if (known) {
      if (known.startedAt === undefined) known.startedAt = Math.min(this.clock.now(), known.endedAt ?? Number.POSITIVE_INFINITY);
    } else {
      this.add(feed, { id, name, input: input.tool_input, sessionId: input.session_id, subagentId: subagentOf(input), startedAt: this.clock.now() });
    }
    this.fire(agentId);
  }

  private ended(agentId: string, input: HookInput, outcome: HookToolOutcome): void {
    const id = toolUseIdOf(input);
    if (!id) return;
    const feed = this.feedOf(agentId);
    const known = feed.tools.get(id);
    const now = this.clock.now();
    if (known) {
      // The first end heard wins: a PermissionDenied and a PostToolUseFailure can both come.
      if (known.outcome !== undefined) return;
      known.outcome = outcome;
      known.endedAt = now;
    } else {
      const name = stringField(input.tool_name);
      if (!name) return;
      this.add(feed, { id, name, input: input.tool_input, sessionId: input.session_id, subagentId: subagentOf(input), endedAt: now, outcome });
    }
    this.fire(agentId);
  }

  private launchedInBackground(agentId: string, input: HookInput): void {
    const id = toolUseIdOf(input);
    const name = stringField(input.tool_name);
    if (!id || !name) return;
    const feed = this.feedOf(agentId);
    const known = feed.tools.get(id);
    if (known) known.background = true;
    else
      this.add(feed, {
        id,
        name,
        input: input.tool_input,
        sessionId: input.session_id,
        subagentId: subagentOf(input),
        startedAt: this.clock.now(),
        background: true,
      });
    this.fire(agentId);
  }

  private compaction(agentId: string, sessionId: string, running: boolean): void {
    const feed = this.feedOf(agentId);
    if (running === feed.compacting.has(sessionId)) return;
    if (running) feed.compacting.set(sessionId, this.clock.now());
    else feed.compacting.delete(sessionId);
    this.fire(agentId);
  }

  private add(feed: AgentFeed, tool: HookTool): void {
    if (feed.tools.size >= MAX_HOOK_TOOLS_PER_AGENT) {
      const oldest = feed.tools.keys().next().value as string;
      feed.tools.delete(oldest);
    }
    feed.tools.set(tool.id, tool);
  }

  private feedOf(agentId: string): AgentFeed {
    let feed = this.agents.get(agentId);
    if (!feed) {
      feed = { tools: new Map(), compacting: new Map() };
      this.agents.set(agentId, feed);
    }
    return feed;
  }

  private fire(agentId: string): void {
    this.changed.fire(agentId);
  }
}

function isAsyncLaunch(response: unknown): boolean {
  return typeof response === "object" && response !== null && (response as { status?: unknown }).status === "async_launched";
}

function stringField(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" && value.length <= MAX_ID_LENGTH ? value : undefined;
}

function toolUseIdOf(input: HookInput): string | undefined {
  return stringField(input.tool_use_id);
}

function subagentOf(input: HookInput): string | null {
  return stringField(input.agent_id) ?? null;
}
