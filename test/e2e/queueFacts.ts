/// <reference lib="dom" />
/**
 * What the queue e2e reads besides the screen, each from its own source, never from the queue's
 * own bookkeeping: the queue tab sampled every 500 ms (each task's state as the user sees it), the
 * model server's requests (when each task's agent was working, from the model's side), the CLI's
 * transcripts (how many times each task was typed) and git (the base branch's first-parent chain).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame, Page } from "playwright-core";
import type { RecordedRequest } from "../rig/model-server.js";

/** The states of a task that hold one of the queue's slots (its agent is being started, works, or waits for the user). */
export const SLOT_STATES = ["starting", "running", "needsYou"];

export interface QueueSample {
  at: number;
  /** Task id → its row's `data-state`. */
  states: Record<string, string>;
}

/** The queue tab's page (`<body data-view="queue">`), when one is on screen now; no waiting. */
async function queueFrameNow(page: Page): Promise<Frame | undefined> {
  for (const frame of page.frames()) {
    if (!frame.url().includes("/pre/fake.html") || !frame.parentFrame()?.url().includes("extensionId=arcadia-dev.arcadia")) continue;
    const view = await frame.evaluate(() => document.body?.dataset.view).catch(() => undefined);
    if (view === "queue") return frame;
  }
  return undefined;
}

/**
 * Reads the queue tab every 500 ms until stopped: each task's state in one pass over the page (a
 * reload or a tab not yet back leaves a gap, recorded as no sample). `onSample` sees each one.
 */
export function sampleQueueTab(page: () => Page, onSample?: (s: QueueSample) => void) {
  const samples: QueueSample[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = Date.now();
      const frame = await queueFrameNow(page()).catch(() => undefined);
      const rows = await frame
        ?.evaluate(() =>
          Array.from(document.querySelectorAll<HTMLElement>('[data-testid="queue-task"]')).map((e) => [e.dataset.task ?? "", e.dataset.state ?? ""]),
        )
        .catch(() => undefined);
      if (rows && rows.length > 0) {
        const sample = { at: Date.now(), states: Object.fromEntries(rows) };
        samples.push(sample);
        onSample?.(sample);
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 500 - (Date.now() - started))));
    }
  })();
  return {
    samples,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/** The most tasks holding a slot in any one sample. */
export const mostHoldingSlots = (samples: readonly QueueSample[]) =>
  Math.max(0, ...samples.map((s) => Object.values(s.states).filter((state) => SLOT_STATES.includes(state)).length));

/** The first sample in which each task read "done" (task id → sample index). */
export function firstDone(samples: readonly QueueSample[]): Map<string, number> {
  const done = new Map<string, number>();
  samples.forEach((s, i) => Object.entries(s.states).forEach(([id, state]) => state === "done" && !done.has(id) && done.set(id, i)));
  return done;
}

/**
 * When each task's agent worked, from the model's side: from the first request of its conversation
 * (with tools, no answer yet: its task just typed) to the request for its last step (`steps`
 * answers in). Requests with more answers in them are the CLI's own after the turn (a forked
 * query carries the whole conversation), not the agent at work.
 */
export function workingSpans(requests: readonly RecordedRequest[], words: Record<string, string>, steps: number): Map<string, { from: number; to: number }> {
  const spans = new Map<string, { from: number; to: number }>();
  for (const r of requests) {
    if (!r.body || r.body.tools === 0 || r.body.assistantMessages >= steps) continue;
    const id = Object.keys(words).find((k) => r.body!.firstUserText.includes(words[k]!));
    if (!id) continue;
    const at = Date.parse(r.time);
    const span = spans.get(id);
    spans.set(id, span ? { from: Math.min(span.from, at), to: Math.max(span.to, at) } : { from: at, to: at });
  }
  return spans;
}

/** The most spans open at one moment. */
export function mostAtOnce(spans: Iterable<{ from: number; to: number }>): number {
  const edges = [...spans].flatMap((s) => [
    [s.from, 1],
    [s.to, -1],
  ]);
  // At one instant an opening counts before a closing: touching spans overlap.
  edges.sort((a, b) => a[0]! - b[0]! || b[1]! - a[1]!);
  let open = 0;
  let most = 0;
  for (const [, delta] of edges) most = Math.max(most, (open += delta!));
  return most;
}

/** The prompts typed into every session of `home` (each transcript's user entries with text of their own), once per entry uuid. */
export function typedPrompts(home: string): string[] {
  const projects = join(home, ".claude", "projects");
  const seen = new Map<string, string>();
  for (const file of readdirSync(projects, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"))) {
    for (const line of readFileSync(join(projects, file), "utf8").split("\n")) {
      let entry: { type?: string; uuid?: string; isMeta?: boolean; message?: { content?: unknown } };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        continue;
      }
      if (entry.type !== "user" || entry.isMeta || !entry.uuid) continue;
      const content = entry.message?.content;
      const text =
        typeof content === "string"
          ? content
          : Array.isArray(content)
            ? content.map((b: { type?: string; text?: string }) => (b.type === "text" ? (b.text ?? "") : "")).join("")
            : "";
      if (text.trim() !== "") seen.set(entry.uuid, text);
    }
  }
  return [...seen.values()];
}

/**
 * The base branch from `since` up, oldest first, as landings: each first-parent step either a
 * merge (its second parent the landed tip) or a fast-forward to a landed tip. Anything else (a
 * commit of no landed branch) comes back as its own hash, so an assertion on the list sees it.
 */
export function landedChain(repo: string, base: string, since: string, tips: Record<string, string>): string[] {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
  const byTip = new Map(Object.entries(tips).map(([id, tip]) => [tip, id]));
  const steps = git("rev-list", "--first-parent", "--reverse", "--parents", `${since}..${base}`).split("\n").filter(Boolean);
  return steps.map((line) => {
    const [commit, , second] = line.split(" ");
    return byTip.get(second ?? commit!) ?? `unexpected ${commit}`;
  });
}
