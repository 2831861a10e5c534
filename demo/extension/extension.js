// Installed by `npm run demo` only, next to Arcadia. Two jobs:
// - a fresh VS Code profile starts with the bottom panel closed, so the Arcadia tab would not be on
//   screen: this shows it once the window is up (VS Code keeps panel layout in the browser, so
//   settings cannot do it);
// - "Arcadia Demo: Run the Story" starts the story's agents (story.json) with Arcadia's own
//   commands, each with its task typed at its prompt once its claude is ready; the demo model
//   (scripts/demo/demoStory.ts) answers each one's task.
// CommonJS: what every VS Code the demo may meet loads (the "vscode" module is only require-able).
/* eslint-disable @typescript-eslint/no-require-imports */
const vscode = require("vscode");
const { agents } = require("./story.json");

const RUN_STORY = "arcadiaDemo.runStory";

async function runStory() {
  // Worktree agents first: each worktree is made from main as it is before anything is merged.
  for (const agent of agents) {
    const request = agent.worktree ? { worktree: agent.worktree, prompt: agent.prompt } : { prompt: agent.prompt };
    await vscode.commands.executeCommand(agent.worktree ? "arcadia.openClaudeInWorktree" : "arcadia.openClaude", request);
  }
  await vscode.commands.executeCommand("arcadia.showPanel");
  void vscode.window.showInformationMessage(
    "The story runs: two worktree agents change the same line (merge the first, then the second: Merge… predicts the conflict), " +
      "two agents edit one file in the shared checkout (the guard asks), one hits a usage limit, one starts a command that never ends (Complete it).",
  );
}

exports.activate = async (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand(RUN_STORY, () =>
      runStory().catch((err) => void vscode.window.showErrorMessage(`The demo story could not start: ${err instanceof Error ? err.message : err}`)),
    ),
  );
  try {
    await vscode.commands.executeCommand("arcadia.showPanel");
  } catch (err) {
    console.error(`arcadia-demo: ${err}`);
  }
  // Once per demo profile (not again after a window reload): the story is one click away, and
  // Open Claude Code stays the way to try your own prompt.
  if (context.globalState.get("arcadiaDemo.offered")) return;
  void context.globalState.update("arcadiaDemo.offered", true);
  const offer = "Arcadia demo: run the story (five agents at once), or click Open Claude Code and type your own prompt.";
  void vscode.window.showInformationMessage(offer, "Run the Story").then((choice) => {
    if (choice === "Run the Story") void vscode.commands.executeCommand(RUN_STORY);
  });
};

exports.deactivate = () => {};
