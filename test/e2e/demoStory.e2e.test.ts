/// <reference lib="dom" />
/**
 * The demo's story end to end, as `npm run demo` sets it up (the demo workspace made a git
 * repository, the demo model, the demo extension beside Arcadia), in a real VS Code with the real
 * CLI and real git: "Arcadia Demo: Run the Story" starts five agents, each with its task typed at
 * its prompt. Then what a person does on the cards, each step asserted on the cards and in git:
 * the guard's question about two agents editing src/app.ts answered, the never-ending command
 * allowed and force-finished with Complete, the usage limit and its reset time shown, the first
 * worktree merged clean, the second's conflict predicted (the file named), "Ask the agent to
 * rebase", the agent's rebase, and the second merge on main.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { DEMO_MODEL_NAME } from "../../scripts/demo/prepare";
import { demoScript } from "../../scripts/demo/demoModel";
import { makeDemoRepository } from "../../scripts/demo/demoRepository";
import { APP, FOLLOW_COMMAND, GREETING, storyAgents } from "../../scripts/demo/demoStory";
import { repoRoot } from "./paths";
import { e2eAvailable, pollUntil, terminalText, type VsCode } from "./harness";
import { agentPanel } from "./agentPanel";
import { type AgentWindow, openAgentWindow } from "./agentWindow";
import { runCommand } from "./workbench";

const available = e2eAvailable("the demo story (e2e)");

describe.skipIf(!available)("the demo story (real VS Code, real CLI, real git)", () => {
  let win: AgentWindow;
  let workspace: string;
  let vs: VsCode;
  let page: Page;
  const figures: Record<string, unknown> = {};
  const { panel, cards, line, details, prompts, showPanel, waitForClaudePrompt, typeInTerminal } = agentPanel(() => page);
  const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });
  const file = (...path: string[]) => readFileSync(join(workspace, ...path), "utf8");
  const [welcome, shout] = storyAgents();
  const tree = (name: string) => join(workspace, ".claude", "worktrees", name);
  const dialogButton = (label: string) => page.locator(".monaco-dialog-box .monaco-button", { hasText: label });
  const idle = (name: string) => pollUntil(async () => (await line(name).getAttribute("data-status")) === "waiting", `${name} idle`, 60_000);

  beforeAll(async () => {
    execFileSync("bash", [join(repoRoot, "scripts", "demo", "package-extension.sh")], { stdio: "inherit" });
    win = await openAgentWindow({
      name: "story",
      moreVsix: [join(repoRoot, "dist", "arcadia-demo.vsix")],
      settings: { "arcadia.extraArgs": ["--model", DEMO_MODEL_NAME] },
      prepareWorkspace: (folder) => {
        workspace = folder;
        cpSync(join(repoRoot, "demo", "workspace"), folder, { recursive: true });
        makeDemoRepository(folder);
      },
      script: () => demoScript(new Date()),
    });
    ({ vs, page } = win);
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await vs?.screenshot(`failed-story-${context.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
      console.log(`Arcadia log at the failure of "${context.task.name}":\n${vs?.extensionLog()}`);
      console.log(`terminal at the failure:\n${await terminalText(page).catch(() => "(none)")}`);
      // What VS Code told the user (a refused launch says why in a notification).
      const told = await page.locator(".notifications-toasts .notification-list-item, .notifications-center .notification-list-item").allTextContents();
      console.log(`notifications at the failure:\n${told.join("\n") || "(none)"}`);
      console.log(`model requests:\n${win.model.requests.map((r) => `${r.reply} ${r.body?.firstUserText?.slice(0, 30) ?? ""}`).join("\n")}`);
    });
  });

  afterAll(async () => {
    console.log(`e2e figures (demo story): ${JSON.stringify(figures)}`);
    await win?.close();
  });

  it("starts five agents from one command, each with its task typed at its prompt", async () => {
    await vs.waitForExtensionLog(/Arcadia activated in \d+ ms/);
    const started = Date.now();
    const consoleErrors: string[] = [];
    page.on("console", (m) => void (m.type() === "error" && consoleErrors.push(m.text().slice(0, 300))));
    const launched = () => /worktree \S+ on worktree-|opened terminal/.test(vs.extensionLog());
    await runCommand(page, "Arcadia Demo: Run the Story");
    // In 2 of 5 local runs (and once in CI) the palette closed as if the command ran, yet nothing
    // ran: no launch, no notification, no error. Said and pictured, then asked once more.
    const ran = await pollUntil(launched, "the story's first launch in the log", 20_000).then(
      () => true,
      () => false,
    );
    if (!ran) {
      await vs.screenshot("story-0-no-launch");
      console.log(`the story's command ran nothing within 20 s; asked again. Browser console errors:\n${consoleErrors.join("\n") || "(none)"}`);
      figures.storyCommandAskedAgain = true;
      await runCommand(page, "Arcadia Demo: Run the Story");
    }
    // Each launch shows its terminal, which takes the bottom panel: the cards are looked at as a
    // person looks, the Arcadia tab brought back first (CI once counted none for a minute otherwise).
    await pollUntil(async () => (await showPanel().catch(() => undefined), (await cards().count()) === 5), "five agents", 60_000);
    // Every task typed (Arcadia logs each once its claude was ready and the text went in).
    await vs.waitForExtensionLog(/(Agent #\d: task typed at its prompt[\s\S]*){5}/, { timeoutMs: 120_000 });
    figures.allTasksTypedMs = Date.now() - started;
    expect(git(workspace, "worktree", "list")).toContain(tree(welcome!.worktree!));
    expect(git(workspace, "worktree", "list")).toContain(tree(shout!.worktree!));
  });

  it("the guard asks before the second agent edits the file the first changed in the shared checkout; allowed, both edits land", async () => {
    const ask = prompts("Agent #4", "permission");
    await ask.waitFor({ timeout: 60_000 });
    await expect(ask.textContent()).resolves.toMatch(/Agent #3 also edits src\/app\.ts/);
    expect(file("src", "app.ts")).toContain(APP.betterComment);
    expect(file("src", "app.ts")).toContain(APP.names);
    await vs.readmeShot("story-guard-asks");
    await ask.locator('[data-testid="prompt-allow"]').click();
    await pollUntil(() => file("src", "app.ts").includes(APP.nonBlank), "agent 4's edit in src/app.ts", 30_000);
    await idle("Agent #4");
  });

  it("the never-ending command is allowed on the card, then force-finished with Complete", async () => {
    const approval = prompts("Agent #3", "command");
    await approval.waitFor({ timeout: 60_000 });
    await expect(approval.textContent()).resolves.toContain(FOLLOW_COMMAND);
    await approval.locator('[data-testid="prompt-allow"]').click();
    const live = (await details("Agent #3")).locator('[data-testid="live-call"]');
    await live.waitFor({ timeout: 30_000 });
    await page.waitForTimeout(2000);
    await live.locator('[data-testid="call-complete"]').click();
    await idle("Agent #3");
    await pollUntil(async () => (await terminalText(page)).includes("Stopped following src/app.ts"), "the agent's answer after Complete", 30_000).catch(
      () => undefined,
    );
    await expect((await details("Agent #3")).locator('[data-testid="live-call"]').count()).resolves.toBe(0);
  });

  it("the usage limit shows on the agent's card with the time it resets", async () => {
    const card = await details("Agent #5");
    await pollUntil(
      async () => /Usage limit reached — resets at/.test((await card.getByTestId("agent-status").textContent()) ?? ""),
      "the limit on Agent #5's card",
      60_000,
    );
    // The status bar says it short ("… need you · until 14:00", never cut); the whole words are in its tooltip.
    await expect(page.locator(".statusbar-item", { hasText: /need you.*until \S/ }).count()).resolves.toBeGreaterThan(0);
  });

  it("merges the first worktree clean; the second's conflict is predicted, the agent rebases when asked, and then it merges", async () => {
    const lastCommit = (name: string) => git(tree(name), "log", "-1", "--format=%s").trim();
    await pollUntil(() => lastCommit(welcome!.worktree!) === "Make the greeting warmer", "agent 1's commit on its branch", 60_000);
    await pollUntil(() => lastCommit(shout!.worktree!) === "Make the greeting louder", "agent 2's commit on its branch", 60_000);
    await idle("Agent #1");
    await idle("Agent #2");

    const first = await details("Agent #1");
    await pollUntil(
      async () => (await first.locator('[data-testid="worktree-changes"]').textContent()) === "1 file · +1 −1",
      "agent 1's change on its card",
      30_000,
    );
    await first.locator('[data-testid="worktree-merge"]').click();
    await page.locator(".monaco-dialog-box", { hasText: "Predicted clean" }).waitFor({ timeout: 15_000 });
    await dialogButton("Merge into main").click();
    await pollUntil(() => git(workspace, "log", "--format=%s", "-1", "main").trim() === "Make the greeting warmer", "the first merge on main", 20_000);
    expect(file("src", "greet.ts")).toContain(GREETING.warmer);

    const second = await details("Agent #2");
    const head = git(workspace, "rev-parse", "main");
    await second.locator('[data-testid="worktree-merge"]').click();
    await page.locator(".monaco-dialog-box", { hasText: "conflict in 1 file: src/greet.ts" }).waitFor({ timeout: 15_000 });
    await vs.readmeShot("story-merge-conflict-predicted");
    expect(git(workspace, "rev-parse", "main")).toBe(head);
    await dialogButton("Ask the agent to rebase").click();
    // The agent rebases (running), resolves, continues, and is idle again with main under its branch.
    const rebased = () => {
      try {
        git(tree(shout!.worktree!), "merge-base", "--is-ancestor", head.trim(), "HEAD");
        return true;
      } catch {
        return false;
      }
    };
    await pollUntil(rebased, "the branch rebased onto main", 90_000);
    // Asking it showed its terminal, which hides the panel (and its page) in the bottom area.
    await showPanel();
    await idle("Agent #2");
    expect(git(tree(shout!.worktree!), "status", "--porcelain")).toBe("");

    await (await details("Agent #2")).locator('[data-testid="worktree-merge"]').click();
    await page.locator(".monaco-dialog-box", { hasText: "Predicted clean" }).waitFor({ timeout: 15_000 });
    await dialogButton("Merge into main").click();
    await pollUntil(() => git(workspace, "log", "--format=%s", "-1", "main").trim() === "Make the greeting louder", "the second merge on main", 20_000);
    expect(file("src", "greet.ts")).toContain(GREETING.both);
    expect(git(workspace, "log", "--format=%s", "main").trim().split("\n")).toEqual([
      "Make the greeting louder",
      "Make the greeting warmer",
      "Tiny greeter: greet each name on the command line",
    ]);
    await vs.readmeShot("story-both-merged");
    expect(await panel().locator('[data-testid="agent-line"]').count()).toBe(5);
  });

  it("a prompt of your own in a new agent still gets the demo's tour: tools, a helper, a permission, a command to Complete", async () => {
    await showPanel();
    await panel().getByTestId("open-claude").click();
    // Its terminal comes to the front (the panel and its page hidden meanwhile).
    await vs.waitForExtensionLog(/Agent #6: opened terminal/);
    await waitForClaudePrompt();
    await typeInTerminal("What does this project do?");
    await showPanel();
    await pollUntil(async () => (await cards().count()) === 6, "a sixth agent", 30_000);
    const ask = prompts("Agent #6", "permission");
    await ask.waitFor({ timeout: 60_000 });
    await expect(ask.textContent()).resolves.toContain("touch demo-notes.txt");
    const card = await details("Agent #6");
    await expect(card.locator('[data-testid="tool-row"]', { hasText: "Subtask" }).count()).resolves.toBeGreaterThan(0);
    await ask.locator('[data-testid="prompt-allow"]').click();
    const approval = prompts("Agent #6", "command");
    await approval.waitFor({ timeout: 30_000 });
    await approval.locator('[data-testid="prompt-allow"]').click();
    const live = card.locator('[data-testid="live-call"]');
    await live.waitFor({ timeout: 30_000 });
    await live.locator('[data-testid="call-complete"]').click();
    await idle("Agent #6");
    expect(existsSync(join(workspace, "demo-notes.txt"))).toBe(true);
  });
});
