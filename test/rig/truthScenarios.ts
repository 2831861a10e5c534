// Scenarios about what the card must never say: a denial, an interrupt and a background task in
// one session, then the CLI's away summary, a side query the scripted model answers with tool
// calls. Recorded with every hook and the status file's timeline (observe.ts), so tests can
// replay the session as Arcadia saw it live and compare it with the card after a reload.
import { join } from "node:path";
import { awaySummaryAfter, hookCaptureArgs } from "./observe.js";
import type { InteractiveScenario } from "./scenarios.js";
import { isTurnEnd, isUserText, readRecords, subagentFiles, waitForRecords, isToolUse } from "./transcripts.js";

const bash = (command: string, description: string) => ({ name: "Bash", input: { command, description } });
const slowPython = (seconds: number, text: string) => `python3 -c "import time; time.sleep(${seconds}); print('${text}')"`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TURN_TIMEOUT = 45_000;
/** The shortest delay the CLI takes for its away summary (it clamps the flag to ≥ 30 s). */
const AWAY_DELAY_MS = 30_000;
const SUBAGENT_PROMPT = "SUBAGENT-TASK: print a greeting from the helper";
/** The recap request's prompt (CLI 2.1.330): "The user stepped away and is coming back. Recap in under 40 words…". */
export const AWAY_SUMMARY_PROMPT = "The user stepped away and is coming back";

export const awaySummary: InteractiveScenario = {
  name: "away-summary",
  description:
    "A denied Bash call (No at the prompt), an Escape during a slow command, a background sub-agent and its notification turn; " +
    "then the terminal loses focus and, 30 s after the last turn, the CLI's away summary asks the model (with the conversation's tools) " +
    "for a recap, answered with text and two tool calls. Hooks and the status file's timeline recorded.",
  mode: "interactive",
  // The away summary's delay from the cached feature flags (observe.ts, awaySummaryAfter).
  env: { CLAUDE_CODE_GB_DISK_CACHE_WHEN_TELEMETRY_OFF: "1" },
  args: ["--allowedTools", "Read", "Bash(ls:*)", "Bash(python3:*)"],
  files: { "README.md": "# Project\n" },
  observe: true,
  script: ({ workspace }) => ({
    conversations: [
      // First: a sub-agent's conversation starts with its own prompt.
      {
        match: "SUBAGENT-TASK",
        steps: [{ tools: [bash(slowPython(5, "hello from the helper"), "Greet slowly")] }, { text: "Helper result: hello from the helper." }],
      },
      {
        // One conversation (the session's first prompt), its replies in order across the prompts.
        match: "Create the denied file",
        steps: [
          { tools: [bash("touch denied.txt", "Create a file")] },
          { tools: [bash(slowPython(30, "slow done"), "Sleep for 30 seconds")] },
          { tools: [{ name: "Agent", input: { description: "Greeting helper", prompt: SUBAGENT_PROMPT, subagent_type: "general-purpose" } }] },
          { text: "The helper is working in the background." },
          { text: "The helper reported back." },
        ],
      },
    ],
    sideQueries: [
      {
        match: AWAY_SUMMARY_PROMPT,
        step: {
          text: "Recap: a file was denied, a slow command interrupted, and the helper greeted.",
          tools: [
            { name: "Read", input: { file_path: join(workspace, "README.md") } },
            { name: "Bash", input: { command: "ls -la", description: "List files" } },
          ],
        },
      },
    ],
  }),
  setup(rig) {
    awaySummaryAfter(rig, AWAY_DELAY_MS);
    return { args: hookCaptureArgs(rig) };
  },
  checkpoints: ["prompt-shown", "after-deny", "slow-tool-running", "after-escape", "background-running", "after-notification", "after-away-summary"],
  async run(s, checkpoint) {
    await s.submit("Create the denied file");
    await s.waitForRecords(isToolUse("Bash"), { timeoutMs: TURN_TIMEOUT, what: "the touch tool_use" });
    await s.waitForScreen(/Do you want to proceed\?/);
    await checkpoint("prompt-shown");
    await s.answerPermission("no");
    await s.waitForRecords(isUserText("[Request interrupted by user for tool use]"), { what: "the denial records" });
    await sleep(500);
    await checkpoint("after-deny");

    await s.waitForIdle();
    await s.submit("Run the slow command");
    await s.waitForRecords(isToolUse("Bash"), { count: 2, timeoutMs: TURN_TIMEOUT, what: "the slow tool_use" });
    await s.waitForProcess(/time\.sleep\(30\)/);
    await sleep(300);
    await checkpoint("slow-tool-running");
    s.pressEscape();
    await s.waitForRecords(isUserText("[Request interrupted by user for tool use]"), { count: 2, what: "the interrupt record" });
    await sleep(500);
    await checkpoint("after-escape");

    await s.waitForIdle();
    await s.submit("Delegate the greeting in the background");
    await s.waitForRecords(isTurnEnd, { count: 1, timeoutMs: TURN_TIMEOUT, what: "the delegating turn's end" });
    let file: string | undefined;
    await waitForRecords(() => (file = subagentFiles(s.projectDir(), s.sessionId)[0]), isToolUse("Bash"), {
      timeoutMs: TURN_TIMEOUT,
      what: "the sub-agent's tool_use",
    });
    if (readRecords(file!).some((r) => JSON.stringify(r).includes('"tool_result"'))) throw new Error("the sub-agent finished before its parent's turn ended");
    await s.waitForProcess(/hello from the helper/);
    await sleep(300);
    await checkpoint("background-running");
    await s.waitForRecords(isUserText("<task-notification>"), { timeoutMs: TURN_TIMEOUT, what: "the task-notification" });
    await s.waitForRecords(isTurnEnd, { count: 2, timeoutMs: TURN_TIMEOUT, what: "the notification turn's end" });
    await sleep(500);
    await checkpoint("after-notification");

    // The user looks elsewhere (the terminal reports focus out, DECSET 1004): the recap comes.
    await s.waitForIdle();
    s.press("\x1b[O");
    await s.waitForRecords((r) => r.type === "system" && r.subtype === "away_summary", { timeoutMs: AWAY_DELAY_MS + 60_000, what: "the away_summary record" });
    await sleep(3000);
    await checkpoint("after-away-summary");
  },
};
