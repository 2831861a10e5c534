/**
 * A queue at work for tests: a real git repository (`main`, a `.worktreeinclude` naming an ignored
 * `.env`), the real queue book over a memory store, the real runner and follower, real worktrees
 * and a real setup command; fakes only for the agents' cards and terminals (what `claude` would do:
 * `ready`, `ask`, `finish`, `exit`), so what the queue starts, types and records can be watched.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { QueueBook, type QueueStore } from "../../src/agents/queue/queueBook";
import { followQueue } from "../../src/agents/queue/queueFollow";
import { QueueRunner } from "../../src/agents/queue/queueRunner";
import { setUpWorktree, type SetupPorts } from "../../src/agents/queue/queueSetup";
import { runSetupProcess } from "../../src/agents/queue/setupProcess";
import type { Readiness } from "../../src/agents/launch/agentReadiness";
import { completeWorktree, createWorktree } from "../../src/core/git";
import { baseTip, type Queue, type SetupAnswers } from "../../src/core/queue";
import { branchExists, takenWorktreeNames } from "../../src/core/races";
import { Emitter } from "../../src/core/util";
import type { AgentFacts } from "../../src/shared/protocol";
import { committedRepo, git } from "./gitRepo";
import { agentFacts } from "./agentFacts";
import { waitForChange } from "./waitFor";

export function memoryQueueStore(): QueueStore & { kept: () => unknown } {
  let kept: unknown = undefined;
  return { kept: () => kept, load: () => kept, save: async (q: Queue | null) => void (kept = JSON.parse(JSON.stringify(q))) };
}

/** The repository: `main` with a committed `.worktreeinclude` naming `.env` (ignored, present in the main checkout). */
export function queueRepo(root: string): string {
  committedRepo(root);
  writeFileSync(join(root, ".gitignore"), ".env\n.claude/\n");
  writeFileSync(join(root, ".worktreeinclude"), ".env\n");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "include .env");
  writeFileSync(join(root, ".env"), "SECRET=1\n");
  return root;
}

export interface WorldOptions {
  store?: ReturnType<typeof memoryQueueStore>;
  /** `arcadia.worktree.setupCommand` (the user's). */
  setupCommand?: string;
  workspaceCommand?: string;
  budgetHold?: () => string | undefined;
  ask?: SetupPorts["ask"];
  answers?: SetupAnswers;
  /** Agents already here (a reload: their cards came back). */
  agentsHere?: string[];
  /** Whether claude comes up by itself (default) or waits for `ready(id)`. */
  autoReady?: boolean;
  /** The number of the first agent this world launches (a reloaded window's new cards follow the old ones). */
  firstAgent?: number;
  /** Whether an agent's session took a prompt (its transcript exists); unknown when not given. */
  prompted?: (agentId: string) => boolean;
  /** Agents whose input box is empty: Enter alone there starts nothing. */
  emptyBox?: string[];
  /** Agents whose card came back reconnecting but whose terminal never does (opened moments before the reload): never ready. */
  notBack?: string[];
}

export function queueWorld(repo: string, options: WorldOptions = {}) {
  const store = options.store ?? memoryQueueStore();
  const book = new QueueBook(store);
  const events: string[] = [];
  const notes: string[] = [];
  const told: string[] = [];
  const cards = new Map<string, AgentFacts>();
  for (const id of options.agentsHere ?? []) cards.set(id, agentFacts(id, { status: "waiting" }));
  const changed = new Emitter<AgentFacts>();
  const removed = new Emitter<string>();
  const finished = new Emitter<AgentFacts>();
  const readiness = new Map<string, (r: Readiness) => void>();
  let n = (options.firstAgent ?? 1) - 1;
  let answers = options.answers ?? {};
  const working = () => [...cards.values()].filter((c) => c.status === "active" || c.status === "needsYou").length;
  let mostWorking = 0;
  const setCard = (id: string, facts: Partial<AgentFacts>) => {
    const card = { ...cards.get(id)!, ...facts };
    cards.set(id, card);
    mostWorking = Math.max(mostWorking, working());
    changed.fire(card);
    return card;
  };
  const ports: SetupPorts = {
    commands: () => ({ user: options.setupCommand, workspace: options.workspaceCommand }),
    timeoutMs: () => 20_000,
    answers: () => answers,
    saveAnswers: async (a) => void (answers = a),
    ask: options.ask ?? (async () => undefined),
    run: (argv, cwd, timeoutMs) => runSetupProcess(argv, cwd, timeoutMs),
    note: (m) => notes.push(m),
  };
  const runner = new QueueRunner({
    book,
    baseTip,
    takenNames: takenWorktreeNames,
    createWorktree,
    completeWorktree,
    setUp: (r, worktree) => setUpWorktree(ports, r, worktree),
    launch: async (cwd, model, extra = []) => {
      const id = `agent-${++n}`;
      cards.set(id, agentFacts(id, { status: "starting" }));
      events.push(`launch ${id} in ${cwd.slice(repo.length + 1)}${model ? ` --model ${model}` : ""}${extra.length ? ` ${extra.join(" ")}` : ""}`);
      return id;
    },
    whenReady: (id) =>
      options.notBack?.includes(id) || options.autoReady === false
        ? new Promise((resolve) => readiness.set(id, resolve))
        : Promise.resolve(cards.has(id) ? "ready" : "gone"),
    whenBack: async (id) => !options.notBack?.includes(id),
    type: async (id, text) => {
      events.push(`type ${id}: ${text}`);
      if (text || !options.emptyBox?.includes(id)) setCard(id, { status: "active" });
    },
    whenTaken: async (id) => cards.get(id)?.status === "active",
    hasAgent: (id) => cards.has(id),
    tookPrompt: (id) => options.prompted?.(id),
    exists: existsSync,
    branchExists,
    budgetHold: () => options.budgetHold?.(),
    log: (m) => events.push(`log ${m}`),
    tell: (m) => told.push(m),
    now: () => performance.now(),
  });
  const follow = followQueue({
    book,
    cards: { card: (id) => cards.get(id), onDidChangeCard: changed.event, onDidRemoveCard: removed.event, onDidFinishTurn: finished.event },
    pump: () => void runner.pump(),
    log: (m) => events.push(`log ${m}`),
    tell: (m) => told.push(m),
    now: () => performance.now(),
  });
  return {
    store,
    book,
    runner,
    follow,
    events,
    notes,
    told,
    cards,
    mostWorking: () => mostWorking,
    typed: () => events.filter((e) => e.startsWith("type ")),
    ready: (id: string, r: Readiness = "ready") => readiness.get(id)!(r),
    ask: (id: string) => setCard(id, { status: "needsYou", needsYou: { kind: "permission" } }),
    /** Its turn ends; with `commit`, it committed a file first (in its worktree, as its agent would). */
    finish: (id: string, commit?: string) => {
      if (commit) {
        const task = book.queue!.tasks.find((t) => t.start?.agentId === id)!;
        const cwd = join(repo, ".claude/worktrees", task.start!.worktree);
        writeFileSync(join(cwd, commit), `${id}\n`);
        git(cwd, "add", "-A");
        git(cwd, "commit", "-q", "-m", `${id}: ${commit}`);
      }
      finished.fire(setCard(id, { status: "waiting", lastTurn: "completed" }));
    },
    exit: (id: string, message: string) => setCard(id, { status: "exited", exitMessage: message }),
    close: (id: string) => (cards.delete(id), removed.fire(id)),
    /** Resolves once the queue, as saved, satisfies `probe` (checked on each of its changes). */
    until: <T>(probe: (q: Queue) => T | undefined | false, what: string) =>
      waitForChange(
        (onChange) => {
          const sub = book.onDidChange(onChange);
          return () => sub.dispose();
        },
        () => book.queue && probe(book.queue),
        10_000,
        what,
      ),
    answers: () => answers,
  };
}
