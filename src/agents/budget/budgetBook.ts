/**
 * Each agent's budget, whole: its cap (a raise kept for its session, else the setting), its race's
 * (budgetGroups.ts), what it, its race and all agents spent today (from the transcripts, via the
 * session figures), the pause rule's verdict the hook gate and the tools read on every call, the brake's last denial, the
 * burn rate. A source of the card store (`budgetView`, by agent on `onDidChange`): a setting, a raise or new spending marks its cards.
 */
import {
  type BudgetDenial,
  type BudgetSettings,
  type GroupInput,
  capEtaText,
  dollars,
  LiveSubagents,
  pausedLine,
  pauseReason,
  type PauseVerdict,
  pauseVerdict,
  rateText,
  readBudgetSettings,
  type RawBudgetSettings,
  type Spend,
  timeToCap,
} from "../../core/budget";
import { localDay } from "../../core/usage";
import { type Disposable, DisposableObject, Emitter, errorMessage, RecentMap } from "../../core/util";
import type { BudgetView } from "../../shared/protocol";
import type { AgentSpend } from "../sessions/sessionCards";
import { allAgentsSummary, BurnRates } from "./burnRates";
import { type BudgetGroup, type BudgetGroupSource, BudgetGroups, groupLine, groupSpent, settingCapOf } from "./budgetGroups";
import { type BudgetState, type BudgetStateStore, readBudgetState, withGroupCap, withPausedSpend, withRaise } from "./budgetState";
import { DaySpends } from "./daySpends";

/** Today's spends of every session are saved at most this often (and when an agent goes). */
const DAY_SAVE_MS = 30_000;

/** The session figures the budget reads (sessionCards.ts). */
export interface SpendSource {
  spend(agentId: string, day: string): AgentSpend | undefined;
  agentIds(): string[];
  onDidChange(listener: (agentIds: string[]) => void): Disposable;
}

export interface BudgetBookOptions {
  settings: () => RawBudgetSettings;
  state: BudgetStateStore;
  now?: () => number;
  log: (message: string) => void;
}

/** Sessions (and their days) whose most spent is remembered: far more than a window's agents. */
const REMEMBERED_SPENDS = 4096;

export class BudgetBook extends DisposableObject {
  private readonly changed = this._register(new Emitter<string[]>((err) => this.log(`budget listener failed: ${errorMessage(err)}`)));
  /** The agents whose budget view may have changed. */
  readonly onDidChange = this.changed.event;
  readonly subagents = new LiveSubagents();
  private current: BudgetSettings;
  private settingProblems: string[];
  private state: BudgetState;
  private spendSource: SpendSource | undefined;
  private readonly rates: BurnRates;
  private readonly brakes = new Map<string, string>();
  /**
   * The most each session (and each session's day) was seen to spend: a spend never goes down, so
   * an agent that empties or rewrites its own transcript (its tools can reach it) is not priced lower.
   */
  private readonly mostSeen = new RecentMap<string, Spend>(REMEMBERED_SPENDS);
  private readonly daySpends: DaySpends;
  private readonly groups: BudgetGroups;
  private daySavedAt = 0;
  private readonly now: () => number;
  private readonly log: (message: string) => void;

  constructor(private readonly options: BudgetBookOptions) {
    super();
    this.now = options.now ?? Date.now;
    this.log = options.log;
    this.rates = new BurnRates(this.now);
    const read = readBudgetSettings(options.settings());
    this.current = read.settings;
    this.settingProblems = read.problems;
    this.state = readBudgetState(options.state.load());
    for (const [sessionId, usd] of Object.entries(this.state.spent ?? {})) this.mostSeen.set(`session ${sessionId}`, { usd, complete: true });
    this.daySpends = new DaySpends(this.state.today);
    this.groups = new BudgetGroups(this.state.groups);
  }

  get settings(): BudgetSettings {
    return this.current;
  }

  /** Why a setting was refused, one message each (shown to the user). */
  get problems(): readonly string[] {
    return this.settingProblems;
  }

  /** The session figures to read; their changes are the budget's. */
  follow(source: SpendSource): Disposable {
    this.spendSource = source;
    return source.onDidChange((agentIds) => {
      for (const id of agentIds) this.sample(id);
      // Today's cap concerns every agent, a race's cap its members: one agent's spending may pause the others.
      this.changed.fire(this.current.perDayUsd !== null ? source.agentIds() : this.groups.withMates(agentIds));
    });
  }

  /** Where the groups sharing a cap come from (the races); their changes may change their members' cards. */
  followGroups(source: BudgetGroupSource): Disposable {
    this.groups.follow(source);
    return source.onDidChange((agentIds) => this.changed.fire(this.groups.withMates(agentIds)));
  }

  /** The settings changed: they apply at once (the next tool call is judged by them). Returns the new problems. */
  settingsChanged(): readonly string[] {
    const read = readBudgetSettings(this.options.settings());
    this.current = read.settings;
    this.settingProblems = read.problems;
    this.fireAll();
    return read.problems;
  }

  verdict(agentId: string): PauseVerdict {
    const day = localDay(this.now());
    const spend = this.spendNow(agentId, day);
    // Today's spend reads every agent followed, so the race's members are noted already (on every call: read once).
    const daySpent = this.daySpend(day);
    const group = this.groupInput(this.groups.of(agentId), false);
    const verdict = pauseVerdict({ agent: spend?.session, agentCapUsd: this.agentCap(spend?.sessionId), group, day: daySpent, dayCapUsd: this.dayCap(day) });
    if (verdict.paused && verdict.scope === "group") this.saveSpends(true);
    else if (verdict.paused && spend?.session) this.keepPausedSpend(spend.sessionId, spend.session.usd);
    return verdict;
  }

  /** Kept when it moved by a cent or more (not on every call of a paused agent). */
  private keepPausedSpend(sessionId: string, usd: number): void {
    const kept = this.state.spent?.[sessionId];
    if (kept !== undefined && Math.abs(kept - usd) < 0.01) return;
    this.state = withPausedSpend(this.state, sessionId, usd);
    this.options.state.save(this.state);
  }

  /** The reason every call of a paused agent is refused (what the model reads), else undefined. */
  refusal(agentId: string): string | undefined {
    const verdict = this.verdict(agentId);
    return verdict.paused ? pauseReason(verdict) : undefined;
  }

  /** Why nothing may be typed to the agent now (tasks, review comments, rebase requests), else undefined. */
  typingRefusal(agentId: string, name: string): string | undefined {
    const verdict = this.verdict(agentId);
    return verdict.paused ? `nothing typed to ${name}: ${pausedLine(verdict)}. Raise… its budget on its card first.` : undefined;
  }

  /** The gate denied a call: a sub-agent beyond the limit is said on the card until the agent is idle. */
  denied(agentId: string, denial: BudgetDenial): void {
    if (denial.kind !== "subagents") return;
    const brake = `A sub-agent was denied: at most ${denial.limit} run at once (arcadia.budget.maxSubagents)`;
    if (this.brakes.get(agentId) === brake) return;
    this.brakes.set(agentId, brake);
    this.changed.fire([agentId]);
  }

  /** The spawn-rate alarm went off for the agent: its card says so until it is idle. */
  runaway(agentId: string, what: string): void {
    this.brakes.set(agentId, `Running away? ${what}`);
    this.changed.fire([agentId]);
  }

  /** The agent is idle: no sub-agent of it runs, the brake's note goes. */
  settled(agentId: string): void {
    this.subagents.settled(agentId);
    if (this.brakes.delete(agentId)) this.changed.fire([agentId]);
  }

  /** The rates moved with time: the agents that have one are told again. */
  refreshRates(): void {
    const ids = this.rates.agentIds();
    if (ids.length > 0) this.changed.fire(ids);
  }

  forget(agentId: string): void {
    this.saveSpends(true);
    this.subagents.settled(agentId);
    this.brakes.delete(agentId);
    this.rates.forget(agentId);
  }

  /**
   * Raises the cap that pauses the agent (its own, its race's, or today's) to `capUsd`; kept across reloads.
   * Returns why not, when `capUsd` would not let it go on.
   */
  raise(agentId: string, capUsd: number): string | undefined {
    const verdict = this.verdict(agentId);
    const scope = verdict.paused ? verdict.scope : "agent";
    const spent = verdict.paused ? verdict.spentUsd : (this.spendNow(agentId, localDay(this.now()))?.session?.usd ?? 0);
    if (!Number.isFinite(capUsd) || capUsd <= spent) return `Raise it above what is spent (${dollars(spent)}).`;
    if (scope === "day") return this.keep({ ...this.state, dayRaise: { day: localDay(this.now()), capUsd } });
    if (scope === "group") return this.keep(withGroupCap(this.state, this.groups.of(agentId)!.id, capUsd));
    const sessionId = this.spendSource?.spend(agentId, localDay(this.now()))?.sessionId;
    if (!sessionId) return "Its session is not read yet: try again in a moment.";
    return this.keep(withRaise(this.state, sessionId, capUsd));
  }

  /**
   * Caps the agent at `capUsd` (its session; kept across reloads), below what it spent too: then it
   * is paused at its next tool call (the alarm's Pause). Returns why not.
   */
  capAgent(agentId: string, capUsd: number): string | undefined {
    if (!Number.isFinite(capUsd) || capUsd < 0) return "A cap is a dollar amount, 0 or more.";
    const sessionId = this.spendNow(agentId, localDay(this.now()))?.sessionId;
    if (!sessionId) return "Its session is not read yet: try again in a moment.";
    return this.keep(withRaise(this.state, sessionId, capUsd));
  }

  /** "Cap this race at…": the cap of the group (by id) for all its members, below what they spent too (paused now). Returns why not. */
  capGroup(groupId: string, capUsd: number): string | undefined {
    if (!Number.isFinite(capUsd) || capUsd < 0) return "A cap is a dollar amount, 0 or more.";
    if (!this.groups.find(groupId)) return "That race is gone.";
    return this.keep(withGroupCap(this.state, groupId, capUsd));
  }

  /** A cap changed: saved, and it applies at once to every card. */
  private keep(state: BudgetState): undefined {
    this.state = state;
    this.options.state.save(state);
    this.fireAll();
    return undefined;
  }

  /** A group's cap now and what its members spent, each read now unless they just were (the pause rule's, the card's, the palette's). */
  groupInput(group: BudgetGroup | undefined, readMembers = true): GroupInput | undefined {
    const day = localDay(this.now());
    const read = readMembers ? (id: string) => void this.spendNow(id, day) : () => undefined;
    return group && this.groups.input(group, this.state.groupCaps?.[group.id] ?? settingCapOf(group.kind, this.current), read);
  }

  /** Why one more agent would start past a cap now (the day's: a new agent has spent nothing of its own), else undefined: a queue's gate. */
  newAgentHold(): string | undefined {
    const day = localDay(this.now());
    const verdict = pauseVerdict({ agent: undefined, agentCapUsd: null, day: this.daySpend(day), dayCapUsd: this.dayCap(day) });
    return verdict.paused ? `today's ${dollars(verdict.capUsd)} budget is reached (${dollars(verdict.spentUsd)} spent)` : undefined;
  }

  /** Pauses the agent now: its cap becomes what it has spent. */
  pauseNow(agentId: string): string | undefined {
    return this.capAgent(agentId, this.spendNow(agentId, localDay(this.now()))?.session?.usd ?? 0);
  }

  /** The cap that applies to the agent now, its scope and what it spent against it. */
  capOf(agentId: string): { scope: "agent" | "group" | "day"; capUsd: number | null } {
    const verdict = this.verdict(agentId);
    if (verdict.paused) return { scope: verdict.scope, capUsd: verdict.capUsd };
    return { scope: "agent", capUsd: this.agentCap(this.spendNow(agentId, localDay(this.now()))?.sessionId) };
  }

  budgetView(agentId: string): BudgetView | null {
    const day = localDay(this.now());
    const spend = this.spendNow(agentId, day);
    const cap = this.agentCap(spend?.sessionId);
    const verdict = this.verdict(agentId);
    const rate = this.rates.rate(agentId);
    const brake = this.brakes.get(agentId) ?? null;
    const group = this.groupInput(this.groups.of(agentId));
    if (cap === null && this.dayCap(day) === null && brake === null && !rate && !group) return null;
    const session = spend?.session;
    const known = session ? dollars(session.usd) + (session.complete ? "" : " + tokens of models without a price") : "unknown (no usage read yet)";
    const eta = cap !== null && session ? capEtaText(timeToCap(session.usd, cap, rate)) : undefined;
    // No cap anywhere (agent, day, race): one row says both spends (a second row would only say "no cap" again).
    const uncapped = cap === null && this.dayCap(day) === null && group !== undefined && group.capUsd === null && !verdict.paused;
    return {
      paused: verdict.paused ? pausedLine(verdict) : null,
      spent: uncapped ? `${known} · ${groupSpent(group)} · no caps` : cap !== null ? `${known} of ${dollars(cap)}` : `${known} (no cap on this agent)`,
      rate: rate !== undefined ? rateText(rate) : null,
      eta: eta && !verdict.paused ? eta : null,
      brake,
      group: group && !uncapped ? groupLine(group) : null,
      inGroup: group !== undefined,
    };
  }

  /** All agents together: "$4.10/h for all agents · today $12.30 of $20.00", for the status bar's tooltip. */
  summary(): string | undefined {
    const day = localDay(this.now());
    const cap = this.dayCap(day);
    return allAgentsSummary(
      this.rates.total(this.spendSource?.agentIds() ?? []),
      cap === null ? undefined : { spentUsd: this.daySpend(day)?.usd ?? 0, capUsd: cap },
    );
  }

  /** The agent's spend as read, never below the most its session (and its day) was seen to spend. */
  private spendNow(agentId: string, day: string): AgentSpend | undefined {
    const read = this.spendSource?.spend(agentId, day);
    if (!read) return undefined;
    const spend = {
      ...read,
      session: this.held(`session ${read.sessionId}`, read.session),
      day: this.held(`day ${day} ${read.sessionId}`, read.day) ?? read.day,
    };
    this.daySpends.note(day, read.sessionId, spend.day);
    if (spend.session) this.groups.note(agentId, read.sessionId, spend.session);
    return spend;
  }

  private held<S extends Spend | undefined>(key: string, spend: S): S | Spend {
    const most = this.mostSeen.get(key);
    if (most && (!spend || spend.usd < most.usd)) return most;
    if (spend) this.mostSeen.set(key, spend);
    return spend;
  }

  private agentCap(sessionId: string | undefined): number | null {
    const raised = sessionId !== undefined && Object.hasOwn(this.state.raises, sessionId) ? this.state.raises[sessionId] : undefined;
    return raised ?? this.current.perAgentUsd;
  }

  private dayCap(day: string): number | null {
    return this.state.dayRaise?.day === day ? this.state.dayRaise.capUsd : this.current.perDayUsd;
  }

  private daySpend(day: string): Spend | undefined {
    const source = this.spendSource;
    if (!source) return undefined;
    // Reading each agent notes its session's spend today; closed agents' sessions are noted already.
    for (const id of source.agentIds()) this.spendNow(id, day);
    return this.daySpends.total(day);
  }

  /** Today's and the groups' spends saved (when they changed), at most every DAY_SAVE_MS unless `now`. */
  private saveSpends(now = false): void {
    if (!now && this.now() - this.daySavedAt < DAY_SAVE_MS) return;
    const today = this.daySpends.takeChanges();
    const groups = this.groups.takeChanges();
    if (!today && !groups) return;
    this.daySavedAt = this.now();
    this.state = { ...this.state, ...(today && { today }), ...(groups && { groups }) };
    this.options.state.save(this.state);
  }

  private sample(agentId: string): void {
    this.saveSpends();
    const usd = this.spendNow(agentId, localDay(this.now()))?.session?.usd;
    if (usd !== undefined) this.rates.sample(agentId, usd);
  }

  private fireAll(): void {
    this.changed.fire(this.spendSource?.agentIds() ?? []);
  }
}
