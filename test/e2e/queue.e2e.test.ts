/// <reference lib="dom" />
/**
 * A queue that runs the day, in a real VS Code (code-server + Chromium) with the real Claude Code
 * CLI, the scripted model and real git, in one loopback-only namespace. Six tasks written one per
 * paragraph in an editor are queued with "Arcadia: Queue Tasks…" at two agents at once
 * (arcadia.queue.parallel): the queue tab, read every 500 ms, never shows more than two tasks
 * holding a slot, nor does the model see more than two at work; each task gets a worktree of its
 * own with the `.env` its `.worktreeinclude` names and the setup command's marker, and its agent a
 * different ARCADIA_WORKTREE_INDEX (which it commits). A window reload after two tasks are done
 * loses none and types none twice (the transcripts). Then "Land Finished Work…" from the tab, one
 * click: the three tasks that touch no shared file and the first of three that each retitle the
 * README land in the predicted order, the check run after each; it stops at the second retitle
 * with README.md named; the base branch holds exactly those four. The start figures are printed.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import type { Script } from "../rig/script.js";
import { e2eAvailable, pollUntil, reloadWindow, runCommand, terminalText, type VsCode } from "./harness";
import { agentPanel } from "./agentPanel";
import { type AgentWindow, openAgentWindow } from "./agentWindow";
import { arcadiaFrame } from "./panelFrame";
import { firstDone, landedChain, mostAtOnce, mostHoldingSlots, sampleQueueTab, SLOT_STATES, type QueueSample, typedPrompts, workingSpans } from "./queueFacts";

const available = e2eAvailable("a queue of six tasks at two at once, across a reload, landed in order (e2e)");
const IDENTITY = { GIT_AUTHOR_NAME: "E2E", GIT_AUTHOR_EMAIL: "e2e@example.com", GIT_COMMITTER_NAME: "E2E", GIT_COMMITTER_EMAIL: "e2e@example.com" };
const SECRET = "QUEUE_SECRET=from-the-main-checkout\n";
const CHECKS_LOG = ".landing-checks.log";
/** The tasks in the order written (q1…q6): a note of its own each, and three that also retitle the README (they conflict pairwise). */
const TASKS = [
  { id: "q1", word: "Alpha", retitles: false, delayMs: 6_000 },
  { id: "q2", word: "Bravo", retitles: true, delayMs: 14_000 },
  { id: "q3", word: "Charlie", retitles: false, delayMs: 6_000 },
  { id: "q4", word: "Delta", retitles: true, delayMs: 14_000 },
  { id: "q5", word: "Echo", retitles: false, delayMs: 6_000 },
  { id: "q6", word: "Foxtrot", retitles: true, delayMs: 14_000 },
].map((t) => ({ ...t, text: `${t.word}: ${t.retitles ? "retitle the readme" : "write a note"} and commit it`, note: `${t.word.toLowerCase()}.txt` }));
const WORDS = Object.fromEntries(TASKS.map((t) => [t.id, t.text]));
const taskOf = (id: string) => TASKS.find((t) => t.id === id)!;

/** The agent's one shell step: its note holds what it found (its index, the setup's marker, the copied .env), then it commits. */
function work(t: (typeof TASKS)[number]): string {
  const note = `{ printf '%s\\n' "$ARCADIA_WORKTREE_INDEX"; cat .setup-done; cat .env; } > ${t.note}`;
  const retitle = t.retitles ? ` && printf '# ${t.word}\\n' > README.md` : "";
  return `${note}${retitle} && git add ${t.note}${t.retitles ? " README.md" : ""} && git commit -q -m '${t.word}'`;
}

const script: Script = {
  conversations: TASKS.map((t) => ({
    match: t.text,
    // A slow first token: the agents overlap, and the reload comes while two work.
    steps: [{ delayMs: t.delayMs, tools: [{ name: "Bash", input: { command: work(t), description: `${t.word}'s note` } }] }, { text: `${t.word} done.` }],
  })),
  fallbackText: "OK.",
};

describe.skipIf(!available)("a queue that runs the day (real VS Code, real CLI, real git)", () => {
  let win: AgentWindow;
  let workspace: string;
  let vs: VsCode;
  let page: Page;
  let base0 = "";
  const figures: Record<string, unknown> = {};
  const { panel, showPanel } = agentPanel(() => page, ".part.panel");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: workspace, encoding: "utf8", env: { ...process.env, ...IDENTITY } }).trim();
  const quickRow = (text: string) => page.locator(".quick-input-widget .monaco-list-row", { hasText: text });
  const dialog = (text: string | RegExp) => page.locator(".monaco-dialog-box", { hasText: text });
  const dialogButton = (label: string) => page.locator(".monaco-dialog-box .monaco-button", { hasText: new RegExp(`^${label}$`) });
  const queueTab = () => page.locator(".part.editor .tab", { hasText: /^Queue$/ });
  /** What the queue tab says of a task (its problem and output), for a failure's message. */
  const taskProblem = async (id: string) =>
    (await arcadiaFrame(page, "queue", 5_000).catch(() => undefined))
      ?.locator(`[data-testid="queue-task"][data-task="${id}"]`)
      .textContent({ timeout: 2_000 })
      .catch(() => "?");

  beforeAll(async () => {
    win = await openAgentWindow({
      name: "queue",
      extraEnv: IDENTITY,
      settings: {
        // Terminals outlive a window reload, as they do by default (the e2e defaults turn it off).
        "terminal.integrated.enablePersistentSessions": true,
        // The agents' one shell step commits in their worktree: no prompt, no sandbox in the way of git's shared folder.
        "arcadia.agentSandbox": "off",
        "arcadia.extraArgs": ["--allowedTools", "Bash"],
        "arcadia.queue.parallel": 2,
        // A machine-scoped user setting (codeServer.ts puts it in code-server's Machine settings).
        "arcadia.worktree.setupCommand": "pwd > .setup-done",
        // Runs in the main checkout after each landing: the commit it saw, one line per run.
        "arcadia.compare.check": `git log -1 --format=%H >> ${CHECKS_LOG}`,
      },
      prepareWorkspace: (folder) => {
        workspace = folder;
        writeFileSync(join(folder, ".gitignore"), `/.claude/worktrees/\n.env\n.setup-done\n${CHECKS_LOG}\n`);
        writeFileSync(join(folder, ".worktreeinclude"), ".env\n");
        writeFileSync(join(folder, "tasks.txt"), TASKS.map((t) => t.text).join("\n\n") + "\n");
        git("init", "-q", "-b", "main");
        git("config", "user.name", IDENTITY.GIT_AUTHOR_NAME);
        git("config", "user.email", IDENTITY.GIT_AUTHOR_EMAIL);
        git("add", "-A");
        git("commit", "-q", "-m", "base");
        // Ignored, so in the main checkout only: what .worktreeinclude copies into each worktree.
        writeFileSync(join(folder, ".env"), SECRET);
        base0 = git("rev-parse", "HEAD");
      },
      script,
    });
    ({ vs, page } = win);
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await vs?.screenshot(`failed-queue-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
      console.log(`terminal at the failure:\n${await terminalText(page, ".part.panel").catch(() => "(none)")}`);
      const seen = win?.model.requests.map(
        (r) => `${r.time} ${r.headers["x-claude-code-session-id"] ?? "-"} ${r.reply} ${r.body?.firstUserText.slice(0, 40) ?? ""}`,
      );
      console.log(`model requests at the failure:\n${seen?.join("\n")}`);
      console.log(`git at the failure:\n${git("log", "--graph", "--oneline", "--all")}`);
    });
  });

  afterAll(async () => {
    console.log(`e2e figures (queue): ${JSON.stringify(figures)}`);
    await win?.close();
  });

  it("runs six tasks two at a time, each in a ready worktree of its own, across a reload, none lost or typed twice; lands four in order", async () => {
    await vs.waitForExtensionLog(/Arcadia activated in \d+ ms/);
    // The tasks, one per paragraph, in an editor; queued from the palette as its text.
    await page.locator(".explorer-folders-view .monaco-list-row", { hasText: "tasks.txt" }).click();
    await page.locator(".part.editor .tab", { hasText: "tasks.txt" }).waitFor({ timeout: 20_000 });
    // Into its text, as a person about to queue what they wrote: the editor in front, with the focus.
    await page.locator(".part.editor .view-lines", { hasText: "Alpha" }).click();
    await runCommand(page, "Arcadia: Queue Tasks…", 60_000, "Queue Tasks");
    const queuedAt = Date.now();
    await quickRow("Tasks from the editor's text").click({ timeout: 10_000 });
    await page.locator(".notifications-toasts", { hasText: "Queued 6 tasks: at most 2 agents at once." }).waitFor({ timeout: 30_000 });

    // The queue tab is read every 500 ms from the moment it shows. The panel's line opens it: each
    // new agent's terminal takes the bottom panel, so the panel is brought back before each look.
    let last: QueueSample | undefined;
    const sampler = sampleQueueTab(
      () => page,
      (s) => (last = s),
    );
    try {
      const line = panel().locator('[data-testid="queue-line"]');
      const lineText = async () => (await showPanel().catch(() => undefined), await line.textContent({ timeout: 2_000 }).catch(() => ""));
      const said = await pollUntil(async () => /^Queue: (\d+ waiting · )?[12] running/.exec((await lineText()) ?? "")?.input, "the queue's line", 60_000);
      figures.firstLine = said;
      await pollUntil(
        async () => (await showPanel().catch(() => undefined), await line.click({ timeout: 3_000 }).catch(() => undefined), await queueTab().isVisible()),
        "the queue tab opened from the line",
        60_000,
      );
      /** Since when each task has read its state (nothing in this script asks the user anything). */
      const stuckSince = new Map<string, { state: string; since: number }>();
      /** Tasks done in the last sample; a failed task, or one needing the user for 20 s, ends the wait at once (with the tab's words for it). */
      const done = async () => {
        const states = Object.entries(last?.states ?? {});
        const holding = states.filter(([, state]) => SLOT_STATES.includes(state));
        if (holding.length > 2)
          throw new Error(`${holding.length} tasks hold a slot at once (at most 2): ${holding.map(([id, state]) => `${id} ${state}`).join(", ")}`);
        // "needs you" for 20 s, or "starting" for 3 minutes (a CLI starts in well under that here): stuck.
        for (const [id, state] of states) if (state !== stuckSince.get(id)?.state) stuckSince.set(id, { state, since: Date.now() });
        const limit = { needsYou: 20_000, starting: 180_000 } as Record<string, number>;
        const stuck = [...stuckSince].find(([, s]) => Date.now() - s.since > (limit[s.state] ?? Infinity))?.[0];
        const failed = states.find(([, state]) => state === "failed")?.[0] ?? stuck;
        if (failed) throw new Error(`${failed} ${stuck === failed ? `stuck ${stuckSince.get(failed)!.state}` : "failed"}: ${await taskProblem(failed)}`);
        return states.filter(([, state]) => state === "done").length;
      };
      const tab = await arcadiaFrame(page, "queue", 60_000);
      const texts = tab.locator('[data-testid="queue-task-text"]');
      await pollUntil(async () => (await texts.count()) === 6, "the six tasks on the queue tab", 20_000);
      expect(await texts.allTextContents()).toEqual(TASKS.map((t) => t.text));
      await vs.screenshot("queue-1-two-at-once");

      // Two done: a reload mid-queue, as a person does it (the workbench saves its editors first).
      figures.doneBeforeReload = await pollUntil(async () => (await done()) >= 2 && done(), "two tasks done", 300_000);
      // Mid-queue: tasks still in line and others holding their slots as the window reloads.
      figures.statesAtReload = { ...last!.states };
      expect(Object.values(last!.states)).toContain("waiting");
      const restoredBefore = vs.extensionLog().match(/restored, bound/g)?.length ?? 0;
      // From the queue tab, as a person watching it does: the keys for the palette go to the
      // workbench, not to the agent's terminal a new agent brought to the front.
      await queueTab().click();
      await reloadWindow(page);
      await page.locator(".monaco-workbench .explorer-folders-view").waitFor({ timeout: 60_000 });
      await pollUntil(() => (vs.extensionLog().match(/restored, bound/g)?.length ?? 0) >= restoredBefore + 2, "the agents bound again", 60_000);
      // The queue tab comes back with the window.
      await queueTab().waitFor({ timeout: 30_000 });
      await queueTab().click();
      await pollUntil(async () => (await done()) === 6, "all six tasks done", 480_000);
    } finally {
      await sampler.stop();
    }
    const samples = sampler.samples;
    figures.queueWallMs = Date.now() - queuedAt;
    figures.samples = samples.length;
    figures.mostHoldingSlots = mostHoldingSlots(samples);
    // Never more than two at once, on the tab (and two did hold a slot together: K was used) and at the model.
    expect(figures.mostHoldingSlots).toBe(2);
    const spans = workingSpans(win.model.requests, WORDS, 2);
    expect([...spans.keys()].sort()).toEqual(TASKS.map((t) => t.id));
    figures.mostWorkingAtTheModel = mostAtOnce(spans.values());
    expect(figures.mostWorkingAtTheModel).toBeLessThanOrEqual(2);
    // The last sample: all done, none failed or waiting on the user.
    expect(Object.values(samples.at(-1)!.states)).toEqual(TASKS.map(() => "done"));
    await vs.screenshot("queue-2-all-done");

    // Each task typed exactly once, across the reload (every session's transcript of HOME).
    const prompts = typedPrompts(win.home);
    for (const t of TASKS) expect(prompts.filter((p) => p.includes(t.text)).length, `${t.id} typed`).toBe(1);
    figures.resumedAfterReload = [...vs.extensionLog().matchAll(/queue (q\d): after the reload, (\w+)/g)].map((m) => `${m[1]} ${m[2]}`);

    // Each in its own worktree, made ready before its agent worked: the agent's note says what it found.
    const tab = await arcadiaFrame(page, "queue", 60_000);
    const worktreeOf: Record<string, string> = {};
    for (const t of TASKS)
      worktreeOf[t.id] = (await tab.locator(`[data-testid="queue-task"][data-task="${t.id}"] [data-testid="queue-task-worktree"]`).textContent())!;
    expect(new Set(Object.values(worktreeOf)).size).toBe(6);
    const indexes = new Set<string>();
    for (const t of TASKS) {
      const folder = join(workspace, ".claude", "worktrees", worktreeOf[t.id]!);
      expect(readFileSync(join(folder, ".env"), "utf8"), `${t.id}'s .env`).toBe(SECRET);
      expect(readFileSync(join(folder, ".setup-done"), "utf8"), `${t.id}'s setup marker`).toBe(`${folder}\n`);
      const [index, marker, ...env] = git("show", `worktree-${worktreeOf[t.id]}:${t.note}`).split("\n");
      expect(index, `${t.id}'s ARCADIA_WORKTREE_INDEX`).toMatch(/^\d+$/);
      expect(marker, `${t.id}'s agent found the marker`).toBe(folder);
      expect(`${env.join("\n")}\n`, `${t.id}'s agent found the .env`).toBe(SECRET);
      indexes.add(index!);
    }
    expect(indexes.size, `ARCADIA_WORKTREE_INDEX: ${[...indexes].join(", ")}`).toBe(6);
    figures.worktreeIndexes = TASKS.map((t) => `${t.id}=${git("show", `worktree-${worktreeOf[t.id]}:${t.note}`).split("\n")[0]}`);

    // The start figures: slot freed → task typed (Arcadia's log, for each task), with the setup command.
    const typed = [...vs.extensionLog().matchAll(/queue (q\d): slot freed → task typed in (\d+) ms \(worktree (\d+|-) ms, set-up (\d+|-) ms\)/g)];
    figures.slotFreedToTypedMs = Object.fromEntries(typed.map((m) => [m[1], Number(m[2])]));
    figures.worktreeMs = Object.fromEntries(typed.map((m) => [m[1], m[3]]));
    figures.setupMs = Object.fromEntries(typed.map((m) => [m[1], m[4]]));
    // Arcadia's own part ends when the set-up does; the rest is the real CLI starting and taking the task.
    figures.cliStartToTypedMs = Object.fromEntries(typed.map((m) => [m[1], Number(m[2]) - Number(m[4])]));
    console.log(`queue start: slot freed → task typed ${JSON.stringify(figures.slotFreedToTypedMs)} ms (with a setup command; the real CLI's start included)`);

    // The order Land Finished Work… should give, from what the user saw: the tasks that share no file
    // in the order they finished, then the first retitle to finish; the second retitle conflicts.
    const doneAt = firstDone(samples);
    const byDone = (ids: string[]) => [...ids].sort((a, b) => doneAt.get(a)! - doneAt.get(b)!);
    const notes = byDone(TASKS.filter((t) => !t.retitles).map((t) => t.id));
    const retitles = byDone(TASKS.filter((t) => t.retitles).map((t) => t.id));
    figures.doneOrder = byDone(TASKS.map((t) => t.id));
    const sameSample = (a: string, b: string) => doneAt.get(a) === doneAt.get(b);
    // Two that turned done in the same sample may land either way round (they finished within 500 ms).
    const fits = (order: string[], expected: string[]) =>
      order.length === expected.length && order.every((id, i) => id === expected[i] || sameSample(id, expected[i]!));

    await tab.locator('[data-testid="queue-land"]').click();
    const ask = dialog("Land 4 finished tasks into main, one at a time, in this order?");
    await ask.waitFor({ timeout: 30_000 });
    const asked = (await ask.textContent()) ?? "";
    const planned = [...asked.matchAll(/\d\. (q\d) "/g)].map((m) => m[1]!);
    const waits = /Then (q\d) "[^"]*" would conflict in ([^:]+): it waits\./.exec(asked);
    figures.plannedOrder = planned;
    expect(fits(planned, [...notes, retitles[0]!]), `planned ${planned.join(",")}; done order ${figures.doneOrder}`).toBe(true);
    expect([...planned.slice(0, 3)].sort(), "the three notes first").toEqual([...notes].sort());
    const rest = retitles.filter((id) => !planned.includes(id));
    expect(rest.length).toBe(2);
    expect(fits([waits?.[1] ?? "none"], [rest[0]!]), `stops at ${waits?.[1]}; done order ${figures.doneOrder}`).toBe(true);
    expect(waits?.[2]).toBe("README.md");
    expect(asked).toContain(`then your check (git log -1 --format=%H >> ${CHECKS_LOG}) runs`);
    // Nothing merged before the click.
    expect(git("rev-parse", "main")).toBe(base0);
    await vs.screenshot("queue-3-land-asked");
    await dialogButton("Land 4 tasks").click();

    // It stops at the conflicting fifth, naming its file; nothing of it is merged.
    // The dialog names the task by its words, a long one cut short with "…" (Foxtrot's 41 characters):
    // found by its id, then its words' start checked.
    const stopped = dialog(new RegExp(`${waits![1]} "[^"]+" was not landed\\.`));
    await stopped.waitFor({ timeout: 120_000 });
    expect(await stopped.textContent()).toContain(`${waits![1]} "${taskOf(waits![1]!).text.slice(0, 30)}`);
    expect(await stopped.textContent()).toContain("Conflicting: README.md.");
    expect(await dialogButton("Ask the agent to rebase").count()).toBe(1);
    expect(await dialogButton("Skip").count()).toBe(1);
    await vs.screenshot("queue-4-stopped-at-the-fifth");
    await dialogButton("Cancel").click();
    // Each landed task's worktree is offered for removal: kept.
    for (const id of planned) {
      await dialog(`${id} landed in main.`).waitFor({ timeout: 30_000 });
      await dialogButton("Keep").click();
    }

    // The base holds exactly the four, in the planned order; the check ran after each (the commit it saw).
    const tips = Object.fromEntries(TASKS.map((t) => [t.id, git("rev-parse", `worktree-${worktreeOf[t.id]}`)]));
    expect(landedChain(workspace, "main", base0, tips)).toEqual(planned);
    const firstParents = git("rev-list", "--first-parent", "--reverse", `${base0}..main`).split("\n");
    expect(readFileSync(join(workspace, CHECKS_LOG), "utf8").trim().split("\n")).toEqual(firstParents);
    const merged = new Set(git("rev-list", `${base0}..main`).split("\n"));
    for (const t of TASKS) expect(merged.has(tips[t.id]!), `${t.id} in main`).toBe(planned.includes(t.id));
    expect(merged.size).toBe(4 + firstParents.filter((c) => git("rev-list", "--parents", "-n", "1", c).split(" ").length === 3).length);
    expect(git("show", "main:README.md")).toBe(`# ${taskOf(planned[3]!).word}`);
    expect(git("status", "--porcelain")).toBe("");
    expect(existsSync(join(workspace, ".git", "MERGE_HEAD"))).toBe(false);
    // The tab says what landed and why the fifth did not.
    const mergeOf = (id: string) => tab.locator(`[data-testid="queue-task"][data-task="${id}"] [data-testid="queue-task-merge"]`);
    for (const id of planned) await pollUntil(async () => (await mergeOf(id).textContent()) === "landed in main", `${id} landed on its row`, 20_000);
    await pollUntil(async () => (await mergeOf(waits![1]!).textContent()) === "conflicts in README.md", "the fifth's conflict on its row", 20_000);
    await vs.screenshot("queue-5-landed");
  }, 1_200_000);
});
