// What the demo model answers the story's agents (demo/extension/story.json: started together by
// "Arcadia Demo: Run the Story"). Each agent's conversation is found by its prompt's marker; the
// replies are what a real model would do, with real edits and real git in the demo's repository:
//   1, 2  worktree agents that change the same line of src/greet.ts and commit: the first merges
//         clean, the second's merge is predicted to conflict; asked to rebase (the request Arcadia
//         types), it rebases, keeps both changes and commits, and then merges;
//   3, 4  two agents in the shared checkout that edit src/app.ts: the guard asks before the second
//         edit; the first then follows the file with Arcadia's execute_command, which never ends
//         by itself, until Complete on its row force-finishes it;
//   5     a turn the API refuses: the API key's usage limit, with the time access comes back.
// Paths are `{{cwd}}/…` (the scripted model puts in each agent's own folder: a worktree agent
// edits its worktree). Texts start with "[demo model" like every demo reply.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Conversation, Step, ToolCall } from "../../test/rig/script";

export interface StoryAgent {
  marker: string;
  /** A worktree agent's worktree name (branch worktree-<name>); absent: the shared checkout. */
  worktree?: string;
  prompt: string;
}

/** The story as the demo extension starts it (one file, read by both). */
export function storyAgents(): StoryAgent[] {
  const file = join(__dirname, "..", "..", "demo", "extension", "story.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { agents: StoryAgent[] }).agents;
}

/** What Arcadia types when Merge… predicts a conflict and the user picks "Ask the agent to rebase" (worktreeCommands.ts). */
export const REBASE_REQUEST = "Please rebase your branch";

/** The line both worktree agents change, and what each makes of it. */
export const GREETING = {
  base: "return `Hello, ${who}!`;",
  warmer: "return `Hello, ${who}, and welcome!`;",
  louder: "return `HELLO, ${who.toUpperCase()}!`;",
  both: "return `HELLO, ${who.toUpperCase()}, AND WELCOME!`;",
};

/** The comment and the line the two shared-checkout agents change in src/app.ts. */
export const APP = {
  comment: "// Prints a greeting for each name on the command line, or for the world.",
  betterComment: "// Prints one greeting per name given on the command line; with no names, greets the world.",
  names: "const names = process.argv.slice(2);",
  nonBlank: 'const names = process.argv.slice(2).filter((name) => name.trim() !== "");',
};

/** The command that never ends by itself: force-finished from the card. */
export const FOLLOW_COMMAND = "tail -f src/app.ts";

const bash = (command: string, description: string): ToolCall => ({ name: "Bash", input: { command, description } });
const read = (path: string): ToolCall => ({ name: "Read", input: { file_path: `{{cwd}}/${path}` } });
const edit = (path: string, from: string, to: string): ToolCall => ({ name: "Edit", input: { file_path: `{{cwd}}/${path}`, old_string: from, new_string: to } });

const GREET_TS = (line: string) =>
  ["// Builds a greeting; an empty name greets the world.", "export function greet(name: string): string {", '  const who = name.trim() || "world";', `  ${line}`, "}", ""].join("\n");

/** The story's conversations, first in the script (before the catch-all tour). `resetsAt`: when the refused turn's limit resets. */
export function storyConversations(resetsAt: Date, pace: { delayMs: number; blockDelayMs: number }): Conversation[] {
  const [welcome, shout, comment, names, limit] = storyAgents();
  const steps = (list: Step[]): Step[] => list.map((s) => ("httpError" in s ? s : { ...pace, ...s }));
  return [
    {
      match: REBASE_REQUEST,
      matchLatestPrompt: true,
      steps: steps([
        { text: "[demo model] Rebasing my branch onto main; git will stop at the conflict.", tools: [bash("git rebase main", "Rebase onto main")] },
        { text: "[demo model] main made the greeting warmer, I made it louder: I'll keep both.", tools: [read("src/greet.ts")] },
        { tools: [{ name: "Write", input: { file_path: "{{cwd}}/src/greet.ts", content: GREET_TS(GREETING.both) } }] },
        { tools: [bash("git add src/greet.ts", "Mark the conflict resolved")] },
        { tools: [bash("git rebase --continue", "Finish the rebase")] },
        { text: "[demo model] Rebased onto main, both changes kept: loud and welcoming. Merge… on my card now predicts a clean merge." },
      ]),
    },
    {
      match: welcome!.marker,
      perPrompt: true,
      steps: steps([
        { text: "[demo model] Making the greeting warmer, in my own worktree.", tools: [read("src/greet.ts")] },
        { tools: [edit("src/greet.ts", GREETING.base, GREETING.warmer)] },
        { tools: [bash('git commit -am "Make the greeting warmer"', "Commit on my branch")] },
        { text: "[demo model] Committed on my branch. Merge it from my card (Merge into main…): Arcadia predicts a clean merge." },
      ]),
    },
    {
      match: shout!.marker,
      perPrompt: true,
      steps: steps([
        { text: "[demo model] Making the greeting louder, in my own worktree.", tools: [read("src/greet.ts")] },
        { tools: [edit("src/greet.ts", GREETING.base, GREETING.louder)] },
        { tools: [bash('git commit -am "Make the greeting louder"', "Commit on my branch")] },
        {
          text:
            "[demo model] Committed on my branch. Once the warmer greeting is merged, Merge… on my card predicts a conflict in " +
            'src/greet.ts: "Ask the agent to rebase" sends me back to fix it.',
        },
      ]),
    },
    {
      match: comment!.marker,
      perPrompt: true,
      steps: steps([
        { text: "[demo model] Improving the comment in src/app.ts.", tools: [read("src/app.ts")] },
        { tools: [edit("src/app.ts", APP.comment, APP.betterComment)] },
        {
          text:
            "[demo model] Now following src/app.ts through Arcadia's execute_command. It never ends by itself: allow it on my " +
            "card, then click Complete on its row to force-finish it.",
          tools: [{ name: "mcp__arcadia__execute_command", input: { command: FOLLOW_COMMAND, timeout_seconds: 3600 } }],
        },
        { text: "[demo model] Stopped following src/app.ts with what it printed so far. The comment is better." },
      ]),
    },
    {
      match: names!.marker,
      perPrompt: true,
      steps: steps([
        // Later than the comment's edit, so the guard sees another agent's uncommitted change.
        { text: "[demo model] Making src/app.ts skip blank names.", tools: [read("src/app.ts")], delayMs: 8000 },
        { tools: [edit("src/app.ts", APP.names, APP.nonBlank)] },
        { text: "[demo model] Done: blank names are skipped. Arcadia asked you first because another agent had changed src/app.ts without committing it." },
      ]),
    },
    {
      match: limit!.marker,
      perPrompt: true,
      // What the API answers an API key past its spend limit (its own words), every time.
      steps: [{ httpError: 400, times: Number.MAX_SAFE_INTEGER, headers: { "x-should-retry": "false" }, message: usageLimitMessage(resetsAt), then: { text: "[demo model] (never: the limit does not lift in the demo)" } }],
    },
  ];
}

/** The API's refusal of an API key past the usage limits its organisation set (400 invalid_request_error). */
export function usageLimitMessage(resetsAt: Date): string {
  const iso = resetsAt.toISOString();
  return `You have reached your specified API usage limits. You will regain access on ${iso.slice(0, 10)} at ${iso.slice(11, 16)} UTC.`;
}

/** Two hours after the next full hour: a reset time that reads as one ("resets at 18:00"). */
export function demoResetTime(now: Date): Date {
  const hour = new Date(now);
  hour.setMinutes(0, 0, 0);
  return new Date(hour.getTime() + 3 * 3_600_000);
}
