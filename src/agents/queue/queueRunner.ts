/**
 * The queue at work: when a slot frees (and the queue is not paused, its base is there and no
 * budget cap would be passed), the next task in line leaves it; its worktree is made from the
 * base's commit as it is then, set up (queueSetup.ts), its agent launched and its task typed once
 * its claude is ready (the races' readiness rule, agents/launch/agentReadiness.ts). Each step is
 * recorded in the queue book before it is taken, so a reload between two steps finds the last
 * fact saved and picks up from there (`resume`, the model's restore rules): no task lost, none
 * typed twice. What its agent does afterwards is queueFollow.ts's. One start at a time decides
 * (`pump` runs alone), so two slots freeing together never start the same task twice.
 */
import { join } from "node:path";
import {
  aboutToType,
  agentLaunched,
  agentNotBack,
  agentWorking,
  agentNeedsYou,
  baseGoneHold,
  beginStart,
  nextStart,
  type Queue,
  type QueueTask,
  restoreQueue,
  type Resume,
  sessionReopened,
  setupFinished,
  type StartGates,
  taskFailed,
  taskOf,
  taskWorktreeName,
  TYPING_CUT,
} from "../../core/queue";
import { errorMessage, visibleText } from "../../core/util";
import { NOT_TAKEN, notReadyReason, type Readiness, sendCutTyping, typeTask } from "../launch/agentReadiness";
import type { QueueBook } from "./queueBook";
import type { SetupResult } from "./queueSetup";

const WORKTREES = join(".claude", "worktrees");

export interface QueueRunnerDeps {
  book: QueueBook;
  /** The base's commit now, or undefined when the branch is gone (core/queue baseTip). */
  baseTip(repo: string, base: string): Promise<string | undefined>;
  /** Worktree names whose folder or branch is there already (core/races takenWorktreeNames). */
  takenNames(repo: string): Promise<Set<string>>;
  createWorktree(repo: string, name: string, from: { base: string; commit: string }): Promise<unknown>;
  /** A worktree whose making a reload may have cut: what creation does after `git worktree add`, where not done (core/git). */
  completeWorktree(repo: string, path: string, base: string): Promise<void>;
  /** Its worktree made ready (setUpWorktree over the VS Code ports). */
  setUp(repo: string, worktree: string): Promise<SetupResult>;
  /** Starts `claude` in `cwd` (`--model` when given, then `extraArgs`): the new card's id. */
  launch(cwd: string, model: string | null, extraArgs?: string[]): Promise<string>;
  whenReady(agentId: string): Promise<Readiness>;
  type(agentId: string, text: string): Promise<void>;
  whenTaken(agentId: string, timeoutMs: number): Promise<boolean>;
  /** The card is here (bound, or reconnecting after a reload). */
  hasAgent(agentId: string): boolean;
  /** After a reload: whether a saved agent is bound again, false once its terminal did not come back in the grace (AgentManager.whenBack). */
  whenBack?(agentId: string): Promise<boolean>;
  /** Its session took a prompt (its transcript exists); undefined when that cannot be told (not bound yet). */
  tookPrompt?(agentId: string): boolean | undefined;
  exists(path: string): boolean;
  branchExists(repo: string, branch: string): Promise<boolean>;
  /** Why one more agent would pass a budget cap now, or undefined. */
  budgetHold(): string | undefined;
  /** What the runner found of the gates each time it looked (for the queue's line). */
  gatesFound?(gates: StartGates): void;
  log(message: string): void;
  /** A task stopped: the user hears why (once per failure). */
  tell(message: string): void;
  now(): number;
}

/** How long a start took, step by step (ms from the slot freeing): the figure the e2e and the log print. */
export interface StartTiming {
  taskId: string;
  worktreeMs?: number;
  setupMs?: number;
  readyMs?: number;
  typedMs?: number;
}

export const taskWorktreePath = (queue: Pick<Queue, "repo">, task: QueueTask) => join(queue.repo, WORKTREES, task.start!.worktree);

export class QueueRunner {
  private pumping: Promise<void> = Promise.resolve();
  private hold: string | undefined;
  private readonly timings: StartTiming[] = [];

  constructor(private readonly deps: QueueRunnerDeps) {}

  /** Why nothing new starts now (paused, base gone, budget), as last found; undefined when tasks start as slots free. */
  why(): string | undefined {
    return this.hold;
  }

  /** The gates as last found, for the queue's line. */
  gates(): StartGates {
    return this.lastGates;
  }
  private lastGates: StartGates = {};

  /** Each start's timing so far (newest last). */
  startTimings(): readonly StartTiming[] {
    return this.timings;
  }

  /** Starts what can start now; safe to call any time (after a change, a budget change, a timer). */
  pump(): Promise<void> {
    this.pumping = this.pumping.then(() => this.startWhatCan()).catch((err: unknown) => this.deps.log(`queue: ${errorMessage(err)}`));
    return this.pumping;
  }

  private async startWhatCan(): Promise<void> {
    for (;;) {
      const queue = this.deps.book.queue;
      if (!queue) return;
      const tip = await this.deps.baseTip(queue.repo, queue.base);
      const gates: StartGates = { ...(tip ? {} : { baseHold: baseGoneHold(queue.base) }), ...this.budgetGate() };
      this.lastGates = gates;
      this.deps.gatesFound?.(gates);
      const next = nextStart(queue, gates);
      if (!next.start) {
        this.hold = next.why;
        return;
      }
      this.hold = undefined;
      const freedAt = this.deps.now();
      const taken = await this.deps.takenNames(queue.repo);
      for (const t of queue.tasks) for (const name of [t.start?.worktree, ...t.earlier.map((e) => e.worktree)]) if (name) taken.add(name);
      const worktree = taskWorktreeName(next.start.text, taken);
      const id = next.start.id;
      await this.deps.book.update((q) => beginStart(q, id, { worktree, commit: tip!, now: this.deps.now() }));
      void this.run(id, "create", freedAt);
    }
  }

  private budgetGate(): StartGates {
    const hold = this.deps.budgetHold();
    return hold ? { budgetHold: hold } : {};
  }

  /** The start's steps from `from` on; any failure stops this task with why, and the queue goes on. */
  private async run(id: string, from: "create" | "setup" | "launch" | "type", freedAt = this.deps.now()): Promise<void> {
    const timing: StartTiming = { taskId: id };
    this.timings.push(timing);
    const since = () => Math.round(this.deps.now() - freedAt);
    try {
      const queue = this.deps.book.queue!;
      let task = taskOf(queue, id)!;
      const cwd = taskWorktreePath(queue, task);
      if (from === "create") {
        await this.step(id, "Its worktree could not be made", () =>
          this.deps.createWorktree(queue.repo, task.start!.worktree, { base: queue.base, commit: task.start!.commit }),
        );
        timing.worktreeMs = since();
      } else if (from === "setup") {
        // Set up again after a reload: its making may have stopped before its .worktreeinclude files.
        await this.step(id, "Its worktree could not be made", () => this.deps.completeWorktree(queue.repo, cwd, queue.base));
      }
      if (from === "create" || from === "setup") {
        const setup = await this.deps.setUp(queue.repo, cwd);
        if (!setup.ready) return void (await this.fail(id, setup.problem, setup.output));
        await this.deps.book.update((q) => setupFinished(q, id));
        timing.setupMs = since();
      }
      task = taskOf(this.deps.book.queue!, id)!;
      if (task.state !== "starting") return; // Cancelled meanwhile.
      let agentId = task.start!.agentId;
      // A task never typed waits for its agent only while that agent may come back: a terminal opened
      // moments before the reload is in no layout VS Code saved and is never revived (raceResume.ts
      // does the same). No key reached it, so a new agent still gets the task once.
      if (from === "type" && agentId && this.deps.whenBack && !(await this.deps.whenBack(agentId))) {
        this.deps.log(`queue ${id}: its agent's terminal did not come back after the reload; launching it again`);
        await this.deps.book.update((q) => agentNotBack(q, id));
        agentId = null;
      }
      if (from !== "type" || !agentId) {
        agentId = await this.step(id, "Its agent could not be started", () => this.deps.launch(cwd, task.model));
        const launched = agentId;
        await this.deps.book.update((q) => agentLaunched(q, id, launched));
      }
      const readiness = await this.deps.whenReady(agentId);
      if (readiness !== "ready") return void (await this.fail(id, `It was not typed: ${notReadyReason(readiness)}.`));
      timing.readyMs = since();
      if (taskOf(this.deps.book.queue!, id)?.state !== "starting") return;
      await this.deps.book.update((q) => aboutToType(q, id));
      const typing = { type: (t: string) => this.deps.type(agentId, t), whenTaken: (ms: number) => this.deps.whenTaken(agentId, ms) };
      const { taken } = await typeTask(typing, visibleText(task.text), () => (timing.typedMs = since()));
      this.deps.log(
        `queue ${id}: slot freed → task typed in ${timing.typedMs} ms (worktree ${timing.worktreeMs ?? "-"} ms, set-up ${timing.setupMs ?? "-"} ms)`,
      );
      const now = taskOf(this.deps.book.queue!, id);
      if (now?.state !== "starting") return; // Followed already (its turn ended, it asked), or cancelled.
      await this.deps.book.update((q) => (taken ? agentWorking(q, id) : agentNeedsYou(q, id, `Its task was typed, but ${NOT_TAKEN}.`)));
    } catch (err) {
      await this.fail(id, errorMessage(err));
    } finally {
      void this.pump();
    }
  }

  private async step<T>(id: string, what: string, act: () => Promise<T>): Promise<T> {
    try {
      return await act();
    } catch (err) {
      throw new Error(`${what}: ${errorMessage(err)}`, { cause: err });
    }
  }

  private async fail(id: string, problem: string, output: string | null = null): Promise<void> {
    const task = this.deps.book.queue && taskOf(this.deps.book.queue, id);
    if (!task || (task.state !== "starting" && task.state !== "running" && task.state !== "needsYou")) return;
    await this.deps.book.update((q) => taskFailed(q, id, problem, this.deps.now(), output));
    this.deps.tell(`Queue: task ${id} stopped: ${problem}`);
  }

  /**
   * After a reload or a restart, before anything new starts: each task under way picks up where its
   * last saved fact left it (core/queue restoreQueue), then the queue goes on.
   */
  async resume(): Promise<void> {
    const queue = this.deps.book.queue;
    if (!queue) return;
    const facts = await Promise.all(
      queue.tasks.map(async (t) => {
        if (!t.start) return { worktree: false, branch: false, agent: false };
        return {
          worktree: this.deps.exists(join(taskWorktreePath(queue, t), ".git")),
          branch: await this.deps.branchExists(queue.repo, `worktree-${t.start.worktree}`),
          agent: t.start.agentId !== null && this.deps.hasAgent(t.start.agentId),
          prompted: t.start.agentId === null ? undefined : this.deps.tookPrompt?.(t.start.agentId),
        };
      }),
    );
    const byId = new Map(queue.tasks.map((t, i) => [t.id, facts[i]!]));
    const restored = restoreQueue(queue, (t) => byId.get(t.id)!, this.deps.now());
    await this.deps.book.set(restored.queue);
    for (const { id, resume } of restored.resumes) this.deps.log(`queue ${id}: after the reload, ${resume}`);
    for (const { id, resume } of restored.resumes) void this.resumeOne(id, resume);
    await this.pump();
  }

  /** Its typing was cut by the window closing: Enter alone (sendCutTyping), never its words again. */
  private async enterAgain(id: string): Promise<void> {
    const agentId = taskOf(this.deps.book.queue!, id)!.start!.agentId!;
    try {
      const typing = { type: (t: string) => this.deps.type(agentId, t), whenTaken: (ms: number) => this.deps.whenTaken(agentId, ms) };
      const sent = await sendCutTyping(typing, () => this.deps.whenReady(agentId));
      if ("notReady" in sent) return void (await this.fail(id, `It was not typed: ${notReadyReason(sent.notReady)}.`));
      this.deps.log(`queue ${id}: its typing cut by the reload; Enter pressed again: ${sent.taken ? "taken" : "not taken"}`);
      if (taskOf(this.deps.book.queue!, id)?.state !== "starting") return; // Followed already, or cancelled.
      await this.deps.book.update((q) => (sent.taken ? agentWorking(q, id) : agentNeedsYou(q, id, TYPING_CUT)));
    } catch (err) {
      await this.fail(id, errorMessage(err));
    } finally {
      void this.pump();
    }
  }

  private async resumeOne(id: string, resume: Resume): Promise<void> {
    if (resume === "setup") return this.run(id, "setup");
    if (resume === "launch") return this.run(id, "launch");
    if (resume === "type") return this.run(id, "type");
    if (resume === "enterAgain") return this.enterAgain(id);
    if (resume !== "continueSession") return;
    const queue = this.deps.book.queue!;
    const task = taskOf(queue, id)!;
    try {
      const agentId = await this.deps.launch(taskWorktreePath(queue, task), task.model, ["--continue"]);
      await this.deps.book.update((q) => sessionReopened(q, id, agentId));
    } catch (err) {
      await this.fail(id, `Its session could not be reopened: ${errorMessage(err)}`);
    }
  }
}
