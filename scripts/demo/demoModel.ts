// What the demo model says: a Script for the scripted model server (test/rig/model-server.ts). The
// story's prompts get the story's replies (demoStory.ts); ANY other prompt, turn after turn, gets
// the same short tour, so a person can watch an Arcadia card go through tools, a sub-agent and back
// to "Idle". Every text it writes starts with "[demo model" so nobody mistakes it for Claude. The
// CLI's side requests (away summary, prompt suggestion, a sub-agent's label) get a short text and
// never tools, as from a real model.
//
// First tools the CLI (2.1.330, default permission mode) runs without asking: Read, read-only
// Bash commands (ls, grep, sleep), and a foreground sub-agent (Agent) doing the same. Grep and
// Glob are not offered by that CLI unless allowed on its command line, so searching goes through
// Bash. Then what Arcadia adds: a `touch` the CLI asks permission for (answered on the card), and
// a long command through Arcadia's MCP `execute_command` (its approval on the card, then Complete).
import type { Script, ToolCall } from "../../test/rig/script";
import { demoResetTime, storyConversations } from "./demoStory";

/** Starts the helper sub-agent's prompt; the helper's conversation is matched by it. Unlikely in
 * a person's own prompt, which would otherwise get the helper's script. */
export const HELPER_MARK = "[arcadia-demo-helper]";

const bash = (command: string, description: string): ToolCall => ({ name: "Bash", input: { command, description } });
/** `{{cwd}}`: the agent's own folder (the model server fills it in), so a worktree agent reads its worktree. */
const read = (path: string): ToolCall => ({ name: "Read", input: { file_path: `{{cwd}}/${path}` } });

/** A minute of output, to watch ticking on the card and to Complete (or Cancel) from the panel. */
const LONG_COMMAND = "for i in $(seq 1 60); do echo tick $i; sleep 1; done";

/**
 * The CLI's side requests that carry the conversation and its tools (a forked query, CLI 2.1.330),
 * by a phrase of their last message: without these they would match a conversation and get its
 * tools as if they were a prompt. (Side requests without tools — titles — never reach one.)
 */
export const SIDE_REQUESTS = {
  awaySummary: "The user stepped away and is coming back",
  promptSuggestion: "[SUGGESTION MODE",
  agentLabel: "Write the label",
};

/** `now`: when the demo starts (the story's usage limit resets a few hours later). */
export function demoScript(now = new Date()): Script {
  // Pauses make the card's changes visible to a person: a first token that takes a moment, and
  // tool calls that arrive one after another as in a real stream.
  const pace = { delayMs: 700, blockDelayMs: 400 };
  return {
    conversations: [
      // The story's agents, and a rebase request typed into any conversation.
      ...storyConversations(demoResetTime(now), pace),
      // Before the tour: a sub-agent's first user message is exactly the prompt it was given.
      {
        match: HELPER_MARK,
        perPrompt: true,
        steps: [
          {
            text: "[demo model, helper] Reading the code and running a slow check.",
            tools: [read("src/greet.ts"), bash("sleep 3", "A slow check (3 s) to watch the card while it runs")],
            ...pace,
          },
          { text: "[demo model, helper] greet.ts and app.ts look consistent; the slow check passed.", ...pace },
        ],
      },
      // Everything else: whatever the prompt, steps restart at every new prompt.
      {
        match: "",
        perPrompt: true,
        steps: [
          {
            text: "[demo model — not Claude] I'll look around the workspace.",
            tools: [read("README.md"), bash("ls -la", "List the workspace")],
            ...pace,
          },
          {
            text: "[demo model] Now I'll search the code and ask a helper to check it.",
            tools: [
              bash("grep -rn export src", "Find what the sources export"),
              {
                name: "Agent",
                input: {
                  description: "Check the code",
                  prompt: `${HELPER_MARK} Read src/greet.ts and run a slow check.`,
                  subagent_type: "general-purpose",
                },
              },
            ],
            ...pace,
          },
          {
            text: "[demo model] Next, a change that needs your permission: answer Allow or Deny on my card in the Arcadia panel (or in the terminal).",
            tools: [bash("touch demo-notes.txt", "Create a notes file (asks your permission)")],
            ...pace,
          },
          {
            text:
              "[demo model] And a long command through Arcadia's own tools: allow it on the card, then click Complete on its row " +
              "whenever you like, and I get what it printed so far.",
            tools: [{ name: "mcp__arcadia__execute_command", input: { command: LONG_COMMAND, timeout_seconds: 120 } }],
            ...pace,
          },
          {
            text:
              "[demo model] Done. This is a tiny TypeScript greeter: src/greet.ts builds a greeting and " +
              "src/app.ts prints one per name. I'm a scripted demo model, not Claude: I answer every " +
              "prompt with these same steps. Try another prompt, /clear, or a second Claude Code from " +
              "the Arcadia panel.",
            ...pace,
          },
        ],
      },
    ],
    sideQueries: [
      { match: SIDE_REQUESTS.awaySummary, step: { text: "[demo model] Working through the demo's scripted steps; next, answer what the Arcadia card asks." } },
      { match: SIDE_REQUESTS.promptSuggestion, step: { text: "Run the demo story" } },
      { match: SIDE_REQUESTS.agentLabel, step: { text: "Checking the code" } },
    ],
    // Reached only past a conversation's last step (e.g. a tool the CLI refused).
    fallbackText: "[demo model] That's all this scripted demo model can do. Type another prompt to run it again.",
    // Realistic token counts, so the card's context gauge shows a real session's share.
    usage: "fromRequestSize",
  };
}
