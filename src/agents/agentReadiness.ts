/**
 * When a new agent can be asked something: its claude is up and idle at its prompt, by its own
 * status file (the exact source: a transcript says nothing until the first prompt). Text typed
 * earlier would land in the shell or in the CLI's start-up screens.
 */
import type { AgentView } from "../shared/protocol";
import type { Event } from "../core/util/emitter";

export type Readiness = "ready" | "exited" | "gone" | "timeout";

/** A first start (the CLI's own, with MCP servers and hooks) takes seconds; two minutes is "it will not". */
export const READY_TIMEOUT_MS = 120_000;

export interface ReadinessSource {
  views(): AgentView[];
  readonly onDidChange: Event<unknown>;
}

export function whenReady(source: ReadinessSource, agentId: string, timeoutMs = READY_TIMEOUT_MS): Promise<Readiness> {
  const now = (): Readiness | undefined => {
    const view = source.views().find((v) => v.id === agentId);
    if (!view) return "gone";
    if (view.status === "exited") return "exited";
    return view.status === "waiting" && view.statusSource === "process" ? "ready" : undefined;
  };
  const known = now();
  if (known) return Promise.resolve(known);
  return new Promise((resolve) => {
    const done = (readiness: Readiness) => (clearTimeout(timer), subscription.dispose(), resolve(readiness));
    const timer = setTimeout(() => done("timeout"), timeoutMs);
    const subscription = source.onDidChange(() => {
      const readiness = now();
      if (readiness) done(readiness);
    });
  });
}

/** What a Readiness other than "ready" means to the user. */
export function notReadyReason(readiness: Exclude<Readiness, "ready">): string {
  if (readiness === "exited") return "its claude exited before it was asked";
  return readiness === "gone" ? "its terminal was closed" : "its claude was not ready in time";
}

/** How long a typed task may take to show as submitted before Enter is pressed again. */
export const SUBMIT_CONFIRM_MS = 3_000;

/**
 * Types `text` at an idle agent's prompt (text, then Enter apart: TerminalHandle.type) and makes
 * sure it was submitted: a `claude` still settling after start-up, on a loaded machine, can take
 * the text and the Enter in one read, as a paste (a new line in its input box, not a submit). If
 * the agent has not left "waiting" within `confirmMs`, Enter is pressed again, up to `enters`
 * times: an Enter on an empty or already submitted input does nothing. True once it was seen working.
 */
export async function typeTask(
  source: ReadinessSource,
  agentId: string,
  type: (text: string) => Promise<void>,
  text: string,
  opts = { confirmMs: SUBMIT_CONFIRM_MS, enters: 2 },
): Promise<boolean> {
  let seen: () => void = () => undefined;
  const working = new Promise<true>((resolve) => (seen = () => resolve(true)));
  const subscription = source.onDidChange(() => {
    const view = source.views().find((v) => v.id === agentId);
    if (view && view.status !== "waiting") seen();
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const within = (ms: number) =>
    Promise.race([working, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]).finally(() => clearTimeout(timer));
  try {
    await type(text);
    for (let enter = 0; ; enter++) {
      if (await within(opts.confirmMs)) return true;
      if (enter >= opts.enters) return false;
      await type("");
    }
  } finally {
    subscription.dispose();
  }
}
