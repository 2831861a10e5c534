/// <reference lib="dom" />
/**
 * A worktree agent from start to merge, in a real VS Code (code-server + Chromium) with the real
 * Claude Code CLI, the scripted model and real git, in one loopback-only namespace: "New
 * Worktree…" on the toolbar, the name accepted, the agent edits two files in its worktree, its card
 * says `2 files · +2 −2` (never "file(s)"), Review opens the multi-file diff editor with both files,
 * each read as modified (no "R", no second path), Merge… proposes the commit message from the first
 * prompt and, confirmed, lands the change in the main checkout; the Review left open then shows no
 * change any more, and Review again says there is nothing to review (issue 33 item 13).
 * A second worktree agent whose change conflicts with main is not merged (the file named, the main
 * checkout untouched) and "Ask the agent to rebase" types the request at its prompt.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import type { Script } from "../rig/script.js";
import { e2eAvailable, pollUntil, runCommand, terminalText, type VsCode } from "./harness";
import { agentPanel } from "./agentPanel";
import { type AgentWindow, openAgentWindow } from "./agentWindow";

const available = e2eAvailable("a worktree agent from start to merge (e2e)");
const PROMPT = "Change the title in the worktree";
const IDENTITY = { GIT_AUTHOR_NAME: "E2E", GIT_AUTHOR_EMAIL: "e2e@example.com", GIT_COMMITTER_NAME: "E2E", GIT_COMMITTER_EMAIL: "e2e@example.com" };

describe.skipIf(!available)("a worktree agent (real VS Code, real CLI, real git)", () => {
  let win: AgentWindow;
  let workspace: string;
  let vs: VsCode;
  let page: Page;
  const figures: Record<string, unknown> = {};
  const { panel, card, showPanel, waitForClaudePrompt, typeInTerminal } = agentPanel(() => page, ".part.panel");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: workspace, encoding: "utf8", env: { ...process.env, ...IDENTITY } });
  const tree = () => join(workspace, ".claude", "worktrees", "agent-1");
  const editIn = (name: string, from: string, to: string, file = "App.tsx") => ({
    name: "Edit",
    input: { file_path: join(workspace, ".claude", "worktrees", name, file), old_string: from, new_string: to },
  });

  beforeAll(async () => {
    win = await openAgentWindow({
      name: "worktrees",
      extraEnv: IDENTITY,
      settings: { "arcadia.extraArgs": ["--allowedTools", "Edit"] },
      prepareWorkspace: (folder) => {
        workspace = folder;
        writeFileSync(join(folder, "App.tsx"), 'export const title = "base";\n');
        writeFileSync(join(folder, "Footer.tsx"), 'export const footer = "base";\n');
        git("init", "-q", "-b", "main");
        git("add", "-A");
        git("commit", "-q", "-m", "base");
      },
      script: (): Script => ({
        conversations: [
          {
            match: "Change the title in the second worktree",
            steps: [
              { tools: [editIn("agent-2", '"from the worktree"', '"from agent two"')] },
              { text: "Second title changed." },
              { text: "Rebase requested and understood." },
            ],
          },
          {
            match: PROMPT,
            steps: [
              { tools: [editIn("agent-1", '"base"', '"from the worktree"'), editIn("agent-1", '"base"', '"footer from the worktree"', "Footer.tsx")] },
              { text: "Title changed." },
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
      await vs?.screenshot(`failed-worktrees-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
      console.log(`terminal at the failure:\n${await terminalText(page, ".part.panel").catch(() => "(none)")}`);
    });
  });

  afterAll(async () => {
    console.log(`e2e figures (worktrees): ${JSON.stringify(figures)}`);
    await win?.close();
  });

  /** A button of the modal dialog VS Code shows (code-server draws it in the page). */
  const dialogButton = (label: string) => page.locator(".monaco-dialog-box .monaco-button", { hasText: label });

  it("opens an agent in a new worktree, shows its change on the card, reviews it in a diff editor and merges it into main", async () => {
    await vs.waitForExtensionLog(/Arcadia activated in \d+ ms/);
    await showPanel();
    await panel().locator('[data-testid="open-claude-worktree"]').click();
    // The name box, with a free name suggested: accepted as is.
    const nameBox = page.locator(".quick-input-widget input");
    await nameBox.waitFor({ timeout: 10_000 });
    await expect(nameBox.inputValue()).resolves.toBe("agent-1");
    await nameBox.press("Enter");
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor({ timeout: 20_000 });
    await waitForClaudePrompt();
    expect(git("worktree", "list")).toContain(`${tree()} `);

    await showPanel();
    const agent = card("Agent #1");
    await agent.locator('[data-testid="agent-worktree"]').waitFor({ timeout: 20_000 });
    await expect(agent.locator('[data-testid="worktree-branch"]').textContent()).resolves.toBe("worktree-agent-1");
    await expect(agent.locator('[data-testid="agent-worktree"]').textContent()).resolves.toContain("isolated");
    // Its terminal is the one in front: the status bar says which branch that agent works on.
    const statusItem = page.locator(".statusbar-item", { hasText: "working ·" }).first();
    await pollUntil(async () => ((await statusItem.textContent()) ?? "").includes("worktree-agent-1"), "the agent's branch in the status bar", 10_000);

    await page.locator(".part.panel .composite-bar .action-item", { hasText: "Terminal" }).click();
    await typeInTerminal(PROMPT);
    await pollUntil(async () => (await terminalText(page, ".part.panel")).includes("Title changed."), "the agent's edit done", 30_000);
    await showPanel();
    const editedAt = Date.now();
    // Two files changed: "2 files", and nowhere on the panel "file(s)".
    await pollUntil(
      async () => (await agent.locator('[data-testid="worktree-changes"]').textContent()) === "2 files · +2 −2",
      "2 files · +2 −2 on the card",
      20_000,
    );
    figures.turnEndToChangesOnCardMs = Date.now() - editedAt;
    await expect(panel().locator("#root").textContent()).resolves.not.toContain("file(s)");
    expect(readFileSync(join(workspace, "App.tsx"), "utf8")).toBe('export const title = "base";\n');

    await agent.locator('[data-testid="worktree-review"]').click();
    const diffTab = page.locator(".part.editor .tab", { hasText: "worktree-agent-1 against main" });
    await diffTab.waitFor({ timeout: 20_000 });
    await page.locator(".part.editor .monaco-editor", { hasText: "from the worktree" }).first().waitFor({ timeout: 20_000 });
    // Each file's header in the multi-file diff: named by its own path, and modified — no "R"
    // (renamed) status and no second, original path beside it, as a rename would show.
    const entries = page.locator(".part.editor .multiDiffEntry");
    await pollUntil(async () => (await entries.count()) === 2, "two files in the Review", 20_000);
    const headers = await entries.evaluateAll((all) =>
      all.map((e) => {
        const status = e.querySelector(".header .status") as HTMLElement | null;
        return {
          path: (e.querySelector(".header .title.modified .label-name")?.textContent ?? "").trim(),
          folder: (e.querySelector(".header .title.modified .label-description")?.textContent ?? "").trim(),
          status: (status?.innerText ?? "").trim(),
          renamed: status?.classList.contains("renamed") ?? false,
          original: (e.querySelector(".header .title.original")?.textContent ?? "").trim(),
        };
      }),
    );
    figures.reviewHeaders = headers;
    expect(headers.map((h) => h.path).sort()).toEqual(["App.tsx", "Footer.tsx"]);
    // …each in the agent's worktree, not the main checkout.
    for (const h of headers) expect(h.folder).toBe(".claude/worktrees/agent-1");
    for (const h of headers)
      expect({ status: h.status, renamed: h.renamed, original: h.original }, `${h.path} reads modified`).toEqual({ status: "", renamed: false, original: "" });
    // The change shows as one: lines marked inserted and deleted in the diff.
    const marked = () => page.locator(".part.editor .multiDiffEntry").locator(".line-insert, .line-delete, .char-insert, .char-delete").count();
    await pollUntil(async () => (await marked()) > 0, "the change marked in the Review", 20_000);
    await vs.screenshot("worktrees-1-review-before-merge");

    await showPanel();
    await pollUntil(async () => (await agent.getAttribute("data-status")) === "waiting", "Agent #1 idle", 20_000);
    await agent.locator('[data-testid="worktree-merge"]').click();
    // Its changes are uncommitted: the commit message is asked, proposed from the first prompt.
    const messageBox = page.locator(".quick-input-widget input");
    await pollUntil(async () => (await messageBox.inputValue().catch(() => "")) === PROMPT, "the commit message proposed from the first prompt", 15_000);
    await messageBox.press("Enter");
    const confirm = page.locator(".monaco-dialog-box", { hasText: "Merge worktree-agent-1 into main" });
    await confirm.waitFor({ timeout: 15_000 });
    const question = (await confirm.textContent()) ?? "";
    expect(question).toMatch(/\b2 files: (App\.tsx, Footer\.tsx|Footer\.tsx, App\.tsx)\./);
    expect(question).not.toContain("file(s)");
    await dialogButton("Merge into main").click({ timeout: 15_000 });
    await pollUntil(
      () => readFileSync(join(workspace, "App.tsx"), "utf8") === 'export const title = "from the worktree";\n',
      "the change in the main checkout",
      20_000,
    );
    // git writes the files before it moves the branch: the log is read once it has.
    await pollUntil(() => git("log", "--format=%s", "-1", "main").trim() === PROMPT, "the merge on main", 10_000);
    expect(git("log", "--format=%s", "-2", "main").trim().split("\n")).toEqual([PROMPT, "base"]);
    await page.locator(".notification-toast", { hasText: "Merged worktree-agent-1 into main (2 files)." }).waitFor({ timeout: 15_000 });
    const mergedAt = Date.now();

    // The Review opened before the merge no longer shows its diff: nothing marked as changed, and
    // (if VS Code keeps the files listed) both sides now read the merged text.
    await pollUntil(
      async () => {
        const left = await page
          .locator(".part.editor .multiDiffEntry .editor.original")
          .allTextContents()
          .catch(() => [] as string[]);
        return (await marked()) === 0 && left.every((t) => !t.includes('"base"'));
      },
      "the open Review without the pre-merge diff",
      20_000,
    );
    figures.mergeToReviewEmptiedMs = Date.now() - mergedAt;
    figures.reviewFilesListedAfterMerge = await entries.count();
    await vs.screenshot("worktrees-2-review-after-merge");
    // Review again: the card says there is nothing left ("no changes", its Review off), and the
    // palette's Review says so in words; no new diff opens, and the open one stays empty.
    await showPanel();
    await pollUntil(async () => (await agent.locator('[data-testid="worktree-changes"]').textContent()) === "no changes", "no changes on the card", 15_000);
    await expect(agent.locator('[data-testid="worktree-review"]').isDisabled()).resolves.toBe(true);
    await vs.screenshot("worktrees-3-card-after-merge");
    await runCommand(page, "Arcadia: Review a Worktree Agent's Changes");
    await page.locator(".notification-toast", { hasText: "Agent #1 has no changes against main." }).waitFor({ timeout: 15_000 });
    await expect(page.locator(".part.editor .tab", { hasText: "against main" }).count()).resolves.toBe(1);
    await expect(marked()).resolves.toBe(0);
    await vs.screenshot("worktrees-4-review-again-after-merge");
  });

  it("a conflicting worktree is not merged: the file is named, main is untouched, and the agent is asked to rebase at its prompt", async () => {
    await showPanel();
    await panel().locator('[data-testid="open-claude-worktree"]').click();
    const nameBox = page.locator(".quick-input-widget input");
    await pollUntil(async () => (await nameBox.inputValue().catch(() => "")) === "agent-2", "agent-2 suggested", 10_000);
    await nameBox.press("Enter");
    await page.locator(".part.panel .terminal-wrapper.active .xterm").waitFor({ timeout: 20_000 });
    await waitForClaudePrompt();
    // main moves on in the same line after the worktree was made.
    writeFileSync(join(workspace, "App.tsx"), 'export const title = "changed on main";\n');
    git("commit", "-q", "-am", "main moves on");
    await typeInTerminal("Change the title in the second worktree");
    await pollUntil(async () => (await terminalText(page, ".part.panel")).includes("Second title changed."), "agent 2's edit done", 30_000);
    await showPanel();
    const agent = card("Agent #2");
    await pollUntil(
      async () => (await agent.locator('[data-testid="worktree-changes"]').textContent()) === "1 file · +1 −1",
      "agent 2's change counted",
      20_000,
    );
    await pollUntil(async () => (await agent.getAttribute("data-status")) === "waiting", "Agent #2 idle", 20_000);
    const before = { file: readFileSync(join(workspace, "App.tsx"), "utf8"), status: git("status", "--porcelain"), head: git("rev-parse", "HEAD") };

    await agent.locator('[data-testid="worktree-merge"]').click();
    await page.locator(".monaco-dialog-box", { hasText: "conflict in 1 file: App.tsx" }).waitFor({ timeout: 15_000 });
    expect({ file: readFileSync(join(workspace, "App.tsx"), "utf8"), status: git("status", "--porcelain"), head: git("rev-parse", "HEAD") }).toEqual(before);
    await dialogButton("Ask the agent to rebase").click();
    await pollUntil(
      async () => (await terminalText(page, ".part.panel")).includes("Rebase requested and understood."),
      "the request answered at agent 2's prompt",
      30_000,
    );
    expect((await terminalText(page, ".part.panel")).replace(/\s+/g, " ")).toContain(
      "Please rebase your branch worktree-agent-2 onto main and resolve the conflicts in App.tsx",
    );
  });
});
