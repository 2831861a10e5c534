/**
 * When a new agent can be asked something, and whether it took what it was asked. Ready: its
 * claude is up and idle at its prompt by its own status file (the exact source: a transcript says
 * nothing until the first prompt); text typed earlier would land in the shell or in the CLI's
 * start-up screens. Taken: it works on the task (or already finished a turn). One rule for every
 * task typed at a new agent: Open Claude Code's `prompt`, a race's members.
 */
import type { AgentFacts } from "../../shared/protocol";
import type { Event } from "../../core/util";

export type Readiness = "ready" | "exited" | "gone" | "timeout";

/** A first start (the CLI's own, with MCP servers and hooks) takes seconds; two minutes is "it will not". */
export const READY_TIMEOUT_MS = 120_000;

/** How long a typed task may take to show as taken before Enter is pressed again. */
export const SUBMIT_CONFIRM_MS = 3_000;

/** The cards (the card store): what an agent's card says now, and its changes. */
export interface ReadinessSource {
  card(agentId: string): AgentFacts | undefined;
  readonly onDidChangeCard: Event<unknown>;
}

/** What `decide` says of the card now or on its next change (undefined: not yet), else `late` after `timeoutMs`. */
function whenCard<T>(
  source: ReadinessSource,
  agentId: string,
  timeoutMs: number,
  late: T,
  decide: (view: AgentFacts | undefined) => T | undefined,
): Promise<T> {
  const now = () => decide(source.card(agentId));
  const known = now();
  if (known !== undefined) return Promise.resolve(known);
  return new Promise((resolve) => {
    const done = (value: T) => (clearTimeout(timer), subscription.dispose(), resolve(value));
    const timer = setTimeout(() => done(late), timeoutMs);
    const subscription = source.onDidChangeCard(() => {
      const value = now();
      if (value !== undefined) done(value);
    });
  });
}

/**
 * The one rule before anything is typed into an agent's terminal (a task, a follow-up, a rebase
 * request, review comments): its `claude` is running and idle at its prompt by its own status
 * file, and the card is bound (not reconnecting after a reload). A transcript's "idle" is not
 * enough: after `claude` exits, the terminal is a shell, and text typed there would run.
 * Read it again right before typing: the agent may have started or ended meanwhile.
 */
export function atClaudePrompt(view: AgentFacts | undefined): boolean {
  return view !== undefined && view.status === "waiting" && view.statusSource === "process" && !view.reconnecting;
}

export function whenReady(source: ReadinessSource, agentId: string, timeoutMs = READY_TIMEOUT_MS): Promise<Readiness> {
  return whenCard<Readiness>(source, agentId, timeoutMs, "timeout", (view) => {
    if (!view) return "gone";
    if (view.status === "exited") return "exited";
    return atClaudePrompt(view) ? "ready" : undefined;
  });
}

/**
 * True once a new agent works on what it was asked, or has already finished that turn (a short
 * task can be done before anyone looks); false when it is gone, exited or still idle after
 * `timeoutMs`. Only for an agent that had no turn before (a finished turn counts as this one).
 */
export function whenTaken(source: ReadinessSource, agentId: string, timeoutMs: number): Promise<boolean> {
  return whenCard(source, agentId, timeoutMs, false, (view) => {
    if (!view || view.status === "exited") return false;
    // Not Arcadia's own Enter (statusSource "submitted"): the CLI may have taken text and Enter as a paste.
    const working = view.statusSource !== "submitted" && (view.status === "active" || view.status === "needsYou" || view.status === "compacting");
    return working || view.lastTurn !== "none" ? true : undefined;
  });
}

/** What a Readiness other than "ready" means to the user. */
export function notReadyReason(readiness: Exclude<Readiness, "ready">): string {
  if (readiness === "exited") return "its claude exited before it was asked";
  return readiness === "gone" ? "its terminal was closed" : "its claude was not ready in time";
}

export interface TaskTyping {
  /** Types `text` at the prompt, then Enter apart (TerminalHandle.type); "" presses Enter alone. */
  type(text: string): Promise<void>;
  /** whenTaken for this agent. */
  whenTaken(timeoutMs: number): Promise<boolean>;
}

export interface TaskTyped {
  taken: boolean;
  /** How many more times Enter was pressed. */
  enterAgain: number;
}

/**
 * Types `text` at an idle new agent's prompt and makes sure it was submitted: a `claude` still
 * settling after start-up (seen with five starting at once on two cores) can take the text and
 * the Enter in one read, as a paste: a new line in its input box, not a submit. If the agent has
 * not taken the task within `confirmMs`, Enter alone is pressed again, `enters` times at most (on
 * an empty or already submitted input it does nothing). `onTyped`: the text is in.
 */
export async function typeTask(typing: TaskTyping, text: string, onTyped?: () => void, opts = { confirmMs: SUBMIT_CONFIRM_MS, enters: 2 }): Promise<TaskTyped> {
  await typing.type(text);
  onTyped?.();
  for (let enterAgain = 0; ; enterAgain++) {
    if (await typing.whenTaken(opts.confirmMs)) return { taken: true, enterAgain };
    if (enterAgain >= opts.enters) return { taken: false, enterAgain };
    await typing.type("");
  }
}

/** What Enter alone did for a task whose typing was cut: taken (with `typeTask`'s count), or the readiness its agent never reached. */
export type CutTypingSent = TaskTyped | { notReady: Exclude<Readiness, "ready"> };

/**
 * A task whose typing a window reload cut: its words may sit in the CLI's box, unsent. Enter alone
 * sends them (in an empty box it does nothing), so they are never typed twice. An agent that took
 * them just before the window closed (its transcript not written yet) is left alone. One rule for
 * the queue's tasks and a race's members. `onReady`: its claude is at its prompt; `onTyped`: Enter is in.
 */
export async function sendCutTyping(
  typing: TaskTyping,
  whenReady: () => Promise<Readiness>,
  on: { onReady?: () => void; onTyped?: () => void } = {},
): Promise<CutTypingSent> {
  if (await typing.whenTaken(1_000)) return { taken: true, enterAgain: 0 };
  const readiness = await whenReady();
  if (readiness !== "ready") return { notReady: readiness };
  on.onReady?.();
  return typeTask(typing, "", on.onTyped);
}

/** What a task not taken means to the user. */
export const NOT_TAKEN = "it did not start on the task: look at its terminal (the task may wait in its input box)";
