/// <reference lib="dom" />
/**
 * Review that talks back, in a real VS Code (code-server + Chromium) with the real Claude Code
 * CLI, the scripted model and real git, in one loopback-only namespace: a worktree agent changes
 * two files; its Review (the multi-file diff editor) takes a comment on a line of each, through
 * VS Code's own comment widget (the "+" in the gutter, the text box, "Add Comment"); the card's
 * "Send 2 comments" types one message at the agent's prompt, which reaches the model with both
 * files, lines and comments (drafts outlive closing the diff); the agent changes one of the two lines; that thread reads
 * "addressed", the other "not addressed", and both survive a window reload. An agent in the shared
 * checkout takes comments on its "Edited 1 file" Review, and gets only its own.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import type { Script } from "../rig/script.js";
import { arcadiaInFront, e2eAvailable, pollUntil, runCommand, terminalText, type VsCode, waitForWorkbench, widthProblems, widthSeen } from "./harness";
import { arcadiaFrame } from "./panelFrame";
import { agentPanel } from "./agentPanel";
import { type AgentWindow, openAgentWindow } from "./agentWindow";

const available = e2eAvailable("review comments sent to a worktree agent (e2e)");
const PROMPT = "Change the title and the notes";
const IDENTITY = { GIT_AUTHOR_NAME: "E2E", GIT_AUTHOR_EMAIL: "e2e@example.com", GIT_COMMITTER_NAME: "E2E", GIT_COMMITTER_EMAIL: "e2e@example.com" };
const APP = ['import { render } from "./render";', "", 'export const title = "base";', "export const size = 1;", "render(title, size);", ""].join("\n");
const NOTES = ["# Notes", "", "Nothing yet.", ""].join("\n");
const SHARED_PROMPT = "Tidy the readme";
const TIDY = "# A tidy workspace";
const COMMENTS = { app: "Call it a heading, not a title.", notes: "Say what changed, not who did it.", readme: "Keep the word sample." };

describe.skipIf(!available)("review comments sent to an agent (real VS Code, real CLI, real git)", () => {
  let win: AgentWindow;
  let workspace: string;
  let vs: VsCode;
  let page: Page;
  const figures: Record<string, unknown> = {};
  const { panel, details, showPanel, waitForClaudePrompt, typeInTerminal } = agentPanel(() => page, ".part.panel");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: workspace, encoding: "utf8", env: { ...process.env, ...IDENTITY } });
  const inTree = (file: string) => join(workspace, ".claude", "worktrees", "agent-1", file);
  const edit = (file: string, from: string, to: string) => ({ name: "Edit", input: { file_path: inTree(file), old_string: from, new_string: to } });

  beforeAll(async () => {
    win = await openAgentWindow({
      name: "review-comments",
      extraEnv: IDENTITY,
      // Terminals outlive a window reload (the agent comes back with its threads).
      settings: { "arcadia.extraArgs": ["--allowedTools", "Edit"], "terminal.integrated.enablePersistentSessions": true },
      prepareWorkspace: (folder) => {
        workspace = folder;
        writeFileSync(join(folder, "App.tsx"), APP);
        writeFileSync(join(folder, "notes.md"), NOTES);
        git("init", "-q", "-b", "main");
        git("add", "-A");
        git("commit", "-q", "-m", "base");
      },
      script: (): Script => ({
        conversations: [
          {
            match: PROMPT,
            steps: [
              { tools: [edit("App.tsx", '"base"', '"from the agent"'), edit("notes.md", "Nothing yet.", "The agent was here.")] },
              { text: "Title and notes changed." },
              // The answer to the review: the title line changes, the notes stay as they are.
              { tools: [edit("App.tsx", 'export const title = "from the agent";', 'export const heading = "from the agent";')] },
              { text: "Renamed the title to heading." },
            ],
          },
          {
            match: SHARED_PROMPT,
            steps: [
              { tools: [{ name: "Edit", input: { file_path: join(workspace, "README.md"), old_string: "# Sample workspace", new_string: TIDY } }] },
              { text: "Readme tidied." },
              { text: "Noted." },
            ],
          },
        ],
        fallbackText: "OK.",
      }),
    });
    ({ vs, page } = win);
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await vs?.screenshot(`failed-review-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
      console.log(`terminal at the failure:\n${await terminalText(page, ".part.panel").catch(() => "(none)")}`);
    });
  });

  afterAll(async () => {
    console.log(`e2e figures (review comments): ${JSON.stringify(figures)}`);
    await win?.close();
  });

  /** The model's first request since `from` that carries a review message. */
  const reviewRequest = (from: number) => win.model.requests.slice(from).find((r) => r.body?.lastUserText.includes("Review comments on your changes"));
  /** The card's review line, e.g. "2 review comments — 1 addressed". */
  const reviewLine = (card: Locator) => card.locator('[data-testid="review-comments-text"]').textContent();
  /** A diff entry's right side (the file now): the editor that takes comments. */
  const changedSide = (text: string) => page.locator(".part.editor .editor.modified", { hasText: text }).first();
  /** A comment thread's widget in the diff editor, by what it holds. */
  const thread = (text: string) => page.locator(".part.editor .review-widget", { hasText: text }).first();
  const threadLabel = async (text: string) => (await thread(text).locator(".review-title").textContent())?.trim();

  /** As a person comments: hover the line, click the "+" in its gutter, type, "Add Comment". */
  async function commentOn(lineText: string, comment: string, agent = "Agent #1"): Promise<void> {
    const editor = changedSide(lineText);
    const line = editor.locator(".view-line", { hasText: lineText }).first();
    // The "+" shows for a hovered line once the editor knows its commenting ranges (asked of the
    // extension when it opened): hover again until it does.
    const plus = editor.locator(".comment-range-glyph.line-hover");
    await pollUntil(
      async () => {
        await page.mouse.move(0, 0);
        await line.hover({ position: { x: 5, y: 5 } });
        return (await plus.count()) > 0;
      },
      `the "+" beside "${lineText}"`,
      10_000,
      250,
    );
    await plus.first().click();
    const widget = page.locator(".part.editor .review-widget", { hasText: "Start discussion" }).first();
    await widget.locator(".comment-form .monaco-editor").waitFor({ timeout: 10_000 });
    await page.keyboard.type(comment);
    await widget.locator(".monaco-button", { hasText: "Add Comment" }).click();
    await pollUntil(async () => (await threadLabel(comment)) === `${agent} · draft: not sent yet`, `the draft "${comment}" on its line`, 10_000);
  }

  it("comments on a line of each of two files in the Review, sends them from the card, and the model gets both", async () => {
    await vs.waitForExtensionLog(/Arcadia activated in \d+ ms/);
    await showPanel();
    await panel().locator('[data-testid="open-claude-worktree"]').click();
    const nameBox = page.locator(".quick-input-widget input");
    await nameBox.waitFor({ timeout: 10_000 });
    await nameBox.press("Enter");
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor({ timeout: 20_000 });
    await waitForClaudePrompt();
    await typeInTerminal(PROMPT);
    await pollUntil(async () => (await terminalText(page, ".part.panel")).includes("Title and notes changed."), "the agent's edits done", 30_000);
    await showPanel();
    const card = await details("Agent #1");
    await pollUntil(async () => (await card.locator('[data-testid="worktree-changes"]').textContent()) === "2 files · +2 −2", "2 files on the card", 20_000);
    await card.locator('[data-testid="worktree-review"]').click();
    await changedSide("The agent was here.").waitFor({ timeout: 20_000 });

    await commentOn('export const title = "from the agent";', COMMENTS.app);
    // Sent from where it was written: the first comment opens VS Code's Comments view over the
    // bottom panel, and Arcadia's panel is back in front at once, its card counting the draft (in
    // the side bar, ARCADIA_E2E_PLACE=sidebar, the view stays in front).
    await pollUntil(() => arcadiaInFront(page), "Arcadia's view in front after the comment", 5_000);
    await pollUntil(
      async () => (await card.locator('[data-testid="review-comments-text"]').textContent()) === "1 review comment — 1 not sent",
      "the draft on the card",
      10_000,
    );
    await commentOn("The agent was here.", COMMENTS.notes);
    await vs.screenshot("review-comments-1-drafts");
    // Drafts outlive the diff: closed and opened again, both are on their lines.
    await runCommand(page, "View: Close All Editors");
    await pollUntil(async () => (await thread(COMMENTS.app).count()) === 0, "the diff closed", 10_000);
    await showPanel();
    await card.locator('[data-testid="worktree-review"]').click();
    await pollUntil(async () => (await threadLabel(COMMENTS.app)) === "Agent #1 · draft: not sent yet", "the first draft back on its line", 20_000);
    expect(await threadLabel(COMMENTS.notes)).toBe("Agent #1 · draft: not sent yet");
    // The reviewer sends and turns away: Review comes back by itself once the agent has answered.
    await runCommand(page, "View: Close All Editors");
    await pollUntil(async () => (await thread(COMMENTS.app).count()) === 0, "the diff closed again", 10_000);

    await showPanel();
    const text = card.locator('[data-testid="review-comments-text"]');
    await pollUntil(async () => (await text.textContent()) === "2 review comments — 2 not sent", "the drafts on the card", 10_000);
    await pollUntil(async () => (await card.getAttribute("data-status")) === "waiting", "Agent #1 idle", 20_000);
    // Item 5 as the user meets it, at 300 px in the side bar too: the count's words whole, Send where
    // a click lands, the page not scrolling sideways.
    const seen = await widthSeen(await arcadiaFrame(page, "agents"), '[data-testid="review-comments-text"], [data-testid="review-send"]', true);
    figures.reviewWidth = seen;
    expect(seen.items.map((i) => i.text)).toEqual(["2 review comments — 2 not sent", expect.stringContaining("Send 2 comments")]);
    expect(widthProblems(seen)).toEqual([]);
    const sentAt = Date.now();
    await card.locator('[data-testid="review-send"]').click();
    const request = await pollUntil(() => reviewRequest(0), "the review message at the model", 30_000);
    figures.sendToModelMs = Date.now() - sentAt;
    const asked = request.body?.lastUserText ?? "";
    expect(asked).toContain('App.tsx line 3, which reads `export const title = "from the agent";`: ' + COMMENTS.app);
    expect(asked).toContain("notes.md line 3, which reads `The agent was here.`: " + COMMENTS.notes);
  });

  it("after the agent's answer the changed line's thread reads addressed, the other not, and the card counts them", async () => {
    // The agent's answer is its edit on the disk (its terminal may be behind Arcadia's panel, whose
    // text the page then does not render: CI read an empty terminal once while the edit was made).
    await pollUntil(
      () => readFileSync(inTree("App.tsx"), "utf8").includes('export const heading = "from the agent";'),
      "the agent's answer (its edit)",
      30_000,
    );
    const answeredAt = Date.now();
    // Review opens again by itself, on the new changes, with the threads on their lines.
    await pollUntil(async () => (await threadLabel(COMMENTS.app)) === "Agent #1 · addressed: its lines changed", "the title's thread addressed", 20_000);
    figures.answerToVerdictMs = Date.now() - answeredAt;
    await page.locator(".part.editor .tab", { hasText: "worktree-agent-1 against main" }).waitFor({ timeout: 10_000 });
    await vs.waitForExtensionLog("Agent #1: answered its review comments: 1 addressed, 1 not", { timeoutMs: 5_000 });
    expect(await threadLabel(COMMENTS.notes)).toBe("Agent #1 · not addressed: its lines are unchanged");
    await vs.screenshot("review-comments-2-answered");
    await showPanel();
    const card = await details("Agent #1");
    await pollUntil(async () => (await reviewLine(card)) === "2 review comments — 1 addressed", "the verdicts on the card", 10_000);
  });

  it("a window reload keeps both threads, with their verdicts", async () => {
    await page.reload();
    await waitForWorkbench(page, vs.url);
    await showPanel();
    const card = await details("Agent #1");
    await pollUntil(async () => (await card.getAttribute("data-status")) === "waiting", "Agent #1 back and idle", 30_000);
    await pollUntil(async () => (await reviewLine(card)) === "2 review comments — 1 addressed", "the verdicts on the card after the reload", 20_000);
    await card.locator('[data-testid="worktree-review"]').click();
    await pollUntil(async () => (await threadLabel(COMMENTS.app)) === "Agent #1 · addressed: its lines changed", "the title's thread after the reload", 20_000);
    expect(await threadLabel(COMMENTS.notes)).toBe("Agent #1 · not addressed: its lines are unchanged");
    await vs.screenshot("review-comments-3-after-reload");
  });

  it("an agent in the shared checkout: its 'Edited 1 file' Review takes comments too, and they go to it alone", async () => {
    await showPanel();
    await panel().locator('[data-testid="open-claude"]').click();
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor({ timeout: 20_000 });
    await waitForClaudePrompt();
    await typeInTerminal(SHARED_PROMPT);
    await pollUntil(async () => (await terminalText(page, ".part.panel")).includes("Readme tidied."), "agent 2's edit done", 30_000);
    await showPanel();
    const card = await details("Agent #2");
    const edited = card.locator('[data-testid="session-edits-text"]');
    await pollUntil(async () => (await edited.textContent())?.startsWith("Edited 1 file this session"), "the edit on the card", 20_000);
    await card.locator('[data-testid="session-edits-review"]').click();
    await commentOn("# A tidy workspace", COMMENTS.readme, "Agent #2");
    await showPanel();
    await pollUntil(async () => (await card.getAttribute("data-status")) === "waiting", "Agent #2 idle", 20_000);
    const before = win.model.requests.length;
    await card.locator('[data-testid="review-send"]').click();
    const request = await pollUntil(() => reviewRequest(before), "agent 2's review message at the model", 30_000);
    const asked = request.body?.lastUserText ?? "";
    expect(asked).toContain("README.md line 1, which reads `# A tidy workspace`: " + COMMENTS.readme);
    // Agent #1's threads are its own: nothing of them reaches Agent #2.
    expect(asked).not.toContain(COMMENTS.app);
    expect(asked).not.toContain(COMMENTS.notes);
    expect(asked).toContain("Review comments on your changes (1)");
  });
});
