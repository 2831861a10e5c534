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
  return readiness === "exited" ? "its claude exited before it was asked" : readiness === "gone" ? "its terminal was closed" : "its claude was not ready in time";
}
