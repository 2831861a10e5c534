// Scripted sessions against the real CLI. Each scenario drives the CLI through one situation the
// extension must understand and calls `checkpoint(name)` at the moments where an integration test
// asserts engine state (the fixture recorder passes a no-op and notes line counts instead).
// Checkpoints are called only once the transcript shows the state they name, so an assertion
// made inside one is not racing the CLI.
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRig, type Rig } from "./claude-rig.js";
import type { InteractiveSession } from "./interactive.js";
import type { PrintResult } from "./print.js";
import type { Script } from "./script.js";
import { apiUsageLimitPrint, renameResume, usageLimitPrint } from "./sessionScenarios.js";
import { awaySummary } from "./truthScenarios.js";
import {
  blocks,
  isAssistantText,
  isToolResult,
  isToolUse,
  isTurnEnd,
  isUserText,
  readRecords,
  subagentFiles,
  waitForRecords,
  type TranscriptRecord,
} from "./transcripts.js";

export type Checkpoint = (name: string) => Promise<void>;

export interface ScenarioSetup {
  args?: string[];
  env?: Record<string, string>;
}

interface ScenarioBase {
  name: string;
  description: string;
  env?: Record<string, string>;
  args?: string[];
  script: Script | ((where: { home: string; workspace: string; root: string }) => Script);
  /** Workspace files to create before the CLI starts. */
  files?: Record<string, string>;
  /** Extra per-rig set-up (config files…); its args/env are added to the scenario's. */
  setup?: (rig: Rig) => ScenarioSetup;
  /** Checkpoint names, in the order `run` calls them. */
  checkpoints: string[];
  /**
   * Record more than the transcript: the hook log (the scenario's setup passes observe.ts's
   * hookCaptureArgs) and the status file's timeline, kept as hooks.ndjson and timeline.ndjson
   * (not .jsonl: a fixture's .jsonl files are transcripts).
   */
  observe?: boolean;
}

export interface InteractiveScenario extends ScenarioBase {
  mode: "interactive";
  run(session: InteractiveSession, checkpoint: Checkpoint, rig: Rig): Promise<void>;
}

/** What a print scenario gets: `print()` runs `claude -p` with the scenario's args/env and the
 * scenario's session id. */
export interface PrintSession {
  sessionId: string;
  rig: Rig;
  print(prompt: string, opts?: { args?: string[]; env?: Record<string, string>; timeoutMs?: number }): Promise<PrintResult>;
  transcriptPath(): string;
  records(): TranscriptRecord[];
}

export interface PrintScenario extends ScenarioBase {
  mode: "print";
  run(session: PrintSession, checkpoint: Checkpoint, rig: Rig): Promise<void>;
}

export type Scenario = InteractiveScenario | PrintScenario;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rigDir = dirname(fileURLToPath(import.meta.url));

const TURN_TIMEOUT = 45_000;

/** Waits for the `n`-th `turn_duration` of a session (turns are counted from the file start). */
function waitTurnEnds(s: InteractiveSession, n: number, sessionId = s.sessionId) {
  return s.waitForRecords(isTurnEnd, { count: n, timeoutMs: TURN_TIMEOUT, sessionId, what: `turn end #${n}` });
}

const bash = (command: string, description: string) => ({ name: "Bash", input: { command, description } });

const slowPython = (seconds: number, text: string) => `python3 -c "import time; time.sleep(${seconds}); print('${text}')"`;

// ---------------------------------------------------------------------------------------------

const severalTools: InteractiveScenario = {
  name: "several-tools",
  description: "One reply with a text block and three tool_use blocks (Read, Bash, Write), all pre-allowed, then a text reply.",
  mode: "interactive",
  files: { "notes.txt": "Arcadia test notes.\nSecond line.\n" },
  args: ["--allowedTools", "Read", "Bash", "Write"],
  script: ({ workspace }) => ({
    conversations: [
      {
        match: "Use several tools",
        steps: [
          {
            text: "I will read, run and write.",
            tools: [
              { name: "Read", input: { file_path: join(workspace, "notes.txt") } },
              bash("echo hi", "Print hi"),
              { name: "Write", input: { file_path: join(workspace, "created.txt"), content: "written by the script\n" } },
            ],
          },
          { text: "All three tools ran." },
        ],
      },
    ],
  }),
  checkpoints: ["after-turn"],
  async run(s, checkpoint) {
    await s.submit("Use several tools please");
    await waitTurnEnds(s, 1);
    await checkpoint("after-turn");
  },
};

const textOnly: InteractiveScenario = {
  name: "text-only",
  description: "A prompt answered with text only.",
  mode: "interactive",
  script: { conversations: [{ match: "Say something nice", steps: [{ text: "You are doing great." }] }] },
  checkpoints: ["after-turn"],
  async run(s, checkpoint) {
    await s.submit("Say something nice");
    await waitTurnEnds(s, 1);
    await checkpoint("after-turn");
  },
};

const escapeSlowTool: InteractiveScenario = {
  name: "escape-slow-tool",
  description: "A pre-allowed 30 s Bash command interrupted with Escape while it runs.",
  mode: "interactive",
  args: ["--allowedTools", "Bash"],
  script: {
    conversations: [
      {
        match: "Run the slow command",
        steps: [{ tools: [bash(slowPython(30, "slow done"), "Sleep for 30 seconds")] }, { text: "Not expected: the tool was interrupted." }],
      },
    ],
  },
  checkpoints: ["tool-running", "after-escape"],
  async run(s, checkpoint) {
    await s.submit("Run the slow command");
    await s.waitForRecords(isToolUse("Bash"), { timeoutMs: TURN_TIMEOUT, what: "the Bash tool_use" });
    await s.waitForProcess(/time\.sleep\(30\)/);
    await checkpoint("tool-running");
    s.pressEscape();
    await s.waitForRecords(isUserText("[Request interrupted by user for tool use]"), { what: "the interrupt record" });
    await sleep(500); // let trailing bookkeeping records land
    await checkpoint("after-escape");
  },
};

const permissionDenyThenApprove: InteractiveScenario = {
  name: "permission-deny-then-approve",
  description: "A Bash call that needs permission is denied (Escape); a second prompt asks for another Bash call, which is approved.",
  mode: "interactive",
  script: {
    conversations: [
      {
        match: "Create the first marker",
        steps: [
          { tools: [bash("touch marker-one.txt", "Create marker one")] },
          { tools: [bash("touch marker-two.txt", "Create marker two")] },
          { text: "Marker two exists now." },
        ],
      },
    ],
  },
  checkpoints: ["prompt-shown", "after-deny", "after-approve"],
  async run(s, checkpoint) {
    await s.submit("Create the first marker");
    await s.waitForRecords(isToolUse("Bash"), { timeoutMs: TURN_TIMEOUT, what: "the first Bash tool_use" });
    await s.waitForScreen(/Do you want to proceed\?/);
    await checkpoint("prompt-shown");
    await s.answerPermission("no");
    await s.waitForRecords(isUserText("[Request interrupted by user for tool use]"), { what: "the denial records" });
    await sleep(500);
    await checkpoint("after-deny");
    await s.waitForIdle();
    await s.submit("Try the second marker instead");
    await s.waitForRecords(isToolUse("Bash"), { count: 2, timeoutMs: TURN_TIMEOUT, what: "the second Bash tool_use" });
    await s.answerPermission("yes");
    await waitTurnEnds(s, 1);
    await checkpoint("after-approve");
  },
};

const clear: InteractiveScenario = {
  name: "clear",
  description: "A turn with a tool, /clear (new transcript file), then another turn with a tool in the new file.",
  mode: "interactive",
  args: ["--allowedTools", "Bash"],
  script: {
    conversations: [
      { match: "First task", steps: [{ tools: [bash("echo one", "Print one")] }, { text: "First task done." }] },
      { match: "Second task", steps: [{ tools: [bash("echo two", "Print two")] }, { text: "Second task done." }] },
    ],
  },
  checkpoints: ["before-clear", "after-clear", "after-second-turn"],
  async run(s, checkpoint) {
    await s.submit("First task");
    await waitTurnEnds(s, 1);
    await checkpoint("before-clear");
    await s.clear();
    const newId = await s.waitForClearedSession();
    await s.waitForRecords((r) => r.type === "system" && r.subtype === "local_command", { sessionId: newId, what: "/clear's local_command" });
    await sleep(500);
    await checkpoint("after-clear");
    await s.submit("Second task");
    await waitTurnEnds(s, 1, newId);
    await checkpoint("after-second-turn");
  },
};

const compact: InteractiveScenario = {
  name: "compact",
  description: "A text turn, then /compact: a compact_boundary, a compact-summary user record (not a prompt), the command's output.",
  mode: "interactive",
  script: {
    conversations: [{ match: "Hello before compacting", steps: [{ text: "Hello!" }] }],
    // The summary request is a side conversation of its own; any text will do.
    fallbackText: "Summary: the user said hello and was greeted.",
  },
  checkpoints: ["after-compact"],
  async run(s, checkpoint) {
    await s.submit("Hello before compacting");
    await waitTurnEnds(s, 1);
    await s.submit("/compact");
    await s.waitForRecords((r) => r.type === "user" && typeof r.message?.content === "string" && r.message.content.includes("<local-command-stdout>"), {
      timeoutMs: TURN_TIMEOUT,
      what: "/compact's output",
    });
    await checkpoint("after-compact");
  },
};

const SUBAGENT_PROMPT = "SUBAGENT-TASK: print a greeting from the helper";

function subagentScript(mainMatch: string, mainSteps: Script["conversations"][number]["steps"], seconds: number): Script {
  return {
    conversations: [
      // Listed first: the sub-agent's first user message is exactly its prompt.
      {
        match: "SUBAGENT-TASK",
        steps: [{ tools: [bash(slowPython(seconds, "hello from the helper"), "Greet slowly")] }, { text: "Helper result: hello from the helper." }],
      },
      { match: mainMatch, steps: mainSteps },
    ],
  };
}

const agentCall = {
  name: "Agent",
  input: { description: "Greeting helper", prompt: SUBAGENT_PROMPT, subagent_type: "general-purpose" },
};

/** Waits for the first sub-agent file of the session to contain a tool_use; returns its path. */
async function waitSubagentToolUse(s: InteractiveSession): Promise<string> {
  let file: string | undefined;
  await waitForRecords(() => (file = subagentFiles(s.projectDir(), s.sessionId)[0]), isToolUse("Bash"), {
    timeoutMs: TURN_TIMEOUT,
    what: "the sub-agent's Bash tool_use",
  });
  return file!;
}

const subagentForeground: InteractiveScenario = {
  name: "subagent-foreground",
  description:
    "The model starts a general-purpose sub-agent in the foreground (CLAUDE_CODE_DISABLE_BACKGROUND_TASKS=1); it runs a 4 s Bash command and hands back.",
  mode: "interactive",
  env: { CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: "1" },
  args: ["--allowedTools", "Bash"],
  script: subagentScript("Delegate the greeting", [{ tools: [agentCall] }, { text: "The helper greeted." }], 4),
  checkpoints: ["subagent-running", "after-turn"],
  async run(s, checkpoint) {
    await s.submit("Delegate the greeting");
    await waitSubagentToolUse(s);
    await s.waitForProcess(/hello from the helper/);
    await checkpoint("subagent-running");
    await waitTurnEnds(s, 1);
    await checkpoint("after-turn");
  },
};

const subagentBackground: InteractiveScenario = {
  name: "subagent-background",
  description:
    "The model starts a sub-agent (background by default): the parent turn ends while it runs a 5 s Bash command; its task-notification starts a new turn.",
  mode: "interactive",
  args: ["--allowedTools", "Bash"],
  script: subagentScript(
    "Delegate the greeting in the background",
    [{ tools: [agentCall] }, { text: "The helper is working in the background." }, { text: "The helper reported back." }],
    5,
  ),
  checkpoints: ["parent-turn-ended-subagent-running", "after-notification"],
  async run(s, checkpoint) {
    await s.submit("Delegate the greeting in the background");
    await waitTurnEnds(s, 1);
    const file = await waitSubagentToolUse(s);
    if (readRecords(file).some(isToolResult)) throw new Error("sub-agent finished before the parent turn ended; make its tool slower");
    await s.waitForProcess(/hello from the helper/);
    await checkpoint("parent-turn-ended-subagent-running");
    await s.waitForRecords(isUserText("<task-notification>"), { timeoutMs: TURN_TIMEOUT, what: "the task-notification" });
    await waitTurnEnds(s, 2);
    await checkpoint("after-notification");
  },
};

const subagentBackgroundLaterTurn: InteractiveScenario = {
  name: "subagent-background-later-turn",
  description:
    "A background sub-agent launched in the first turn is still running when a second prompt's turn ends: what that turn's turn_duration says about agents still pending (restore relies on it), then the notification.",
  mode: "interactive",
  args: ["--allowedTools", "Bash"],
  script: subagentScript(
    "Delegate the long greeting in the background",
    [
      { tools: [agentCall] },
      { text: "The helper is working in the background." },
      { text: "Hello from the second turn." },
      { text: "The helper reported back." },
    ],
    14,
  ),
  checkpoints: ["second-turn-ended-subagent-running", "after-notification"],
  async run(s, checkpoint) {
    await s.submit("Delegate the long greeting in the background");
    await waitTurnEnds(s, 1);
    const file = await waitSubagentToolUse(s);
    await s.submit("Say hello while the helper works");
    await waitTurnEnds(s, 2);
    if (readRecords(file).some(isToolResult)) throw new Error("sub-agent finished before the second turn ended; make its tool slower");
    await checkpoint("second-turn-ended-subagent-running");
    await s.waitForRecords(isUserText("<task-notification>"), { timeoutMs: TURN_TIMEOUT, what: "the task-notification" });
    await waitTurnEnds(s, 3);
    await checkpoint("after-notification");
  },
};

const mcpTwoCalls: InteractiveScenario = {
  name: "mcp-two-calls",
  description: "One reply with two tool_use blocks for a stdio MCP server's echo tool (pre-allowed).",
  mode: "interactive",
  script: {
    conversations: [
      {
        match: "Echo twice",
        steps: [
          {
            tools: [
              { name: "mcp__echo__echo", input: { text: "first" } },
              { name: "mcp__echo__echo", input: { text: "second" } },
            ],
          },
          { text: "Both echoes came back." },
        ],
      },
    ],
  },
  setup(rig) {
    const mcpLog = join(rig.root, "runs", "mcp.log");
    writeFileSync(mcpLog, "");
    const config = join(rig.root, "runs", "mcp.json");
    const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          echo: {
            type: "stdio",
            command: process.execPath,
            args: ["--import", tsxLoader, join(rigDir, "mcp-echo-server.ts")],
            env: { ARCADIA_MCP_LOG: mcpLog },
          },
        },
      }),
    );
    return { args: ["--mcp-config", config, "--strict-mcp-config", "--allowedTools", "mcp__echo__echo", "mcp__echo__slow_echo"] };
  },
  checkpoints: ["after-turn"],
  async run(s, checkpoint, rig) {
    // MCP servers connect in the background; a prompt sent earlier would not offer the tools.
    await waitForRecords(join(rig.root, "runs", "mcp.log"), (r) => r.method === "tools/list", { timeoutMs: 30_000, what: "MCP tools/list" });
    await s.submit("Echo twice");
    await waitTurnEnds(s, 1);
    await checkpoint("after-turn");
  },
};

// ---------------------------------------------------------------------------------------------

function expectExit(result: PrintResult, what: string): void {
  if (result.exitCode !== 0 || result.timedOut) {
    throw new Error(`${what}: exit ${result.exitCode}${result.timedOut ? " (timed out)" : ""}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  }
}

const apiErrorsPrint: PrintScenario = {
  name: "api-errors-print",
  description: "Print mode: the first request fails with 529 twice before a tool call, the second with 429 once before the final text.",
  mode: "print",
  env: { CLAUDE_CODE_MAX_RETRIES: "4" },
  args: ["--allowedTools", "Bash"],
  script: {
    conversations: [
      {
        match: "Answer despite errors",
        steps: [
          { httpError: 529, times: 2, then: { tools: [bash("echo recovered", "Print recovered")] } },
          { httpError: 429, times: 1, then: { text: "Recovered after overload and rate limit." } },
        ],
      },
    ],
  },
  checkpoints: ["done"],
  async run(p, checkpoint) {
    const result = await p.print("Answer despite errors");
    expectExit(result, "claude -p");
    if (!p.records().some((r) => r.type === "system" && r.subtype === "api_error")) throw new Error("no system/api_error record written");
    await checkpoint("done");
  },
};

const printText: PrintScenario = {
  name: "print-text",
  description: "Print mode, text-only answer.",
  mode: "print",
  script: { conversations: [{ match: "Print a greeting", steps: [{ text: "Greetings from print mode." }] }] },
  checkpoints: ["done"],
  async run(p, checkpoint) {
    const result = await p.print("Print a greeting");
    expectExit(result, "claude -p");
    if (!result.stdout.includes("Greetings from print mode.")) throw new Error(`unexpected stdout: ${result.stdout}`);
    await checkpoint("done");
  },
};

const printTool: PrintScenario = {
  name: "print-tool",
  description: "Print mode, one pre-allowed Bash call then a text answer.",
  mode: "print",
  args: ["--allowedTools", "Bash"],
  script: {
    conversations: [{ match: "Print with a tool", steps: [{ tools: [bash("echo from-print", "Print from-print")] }, { text: "The tool said from-print." }] }],
  },
  checkpoints: ["done"],
  async run(p, checkpoint) {
    const result = await p.print("Print with a tool");
    expectExit(result, "claude -p");
    if (!p.records().some(isAssistantText("The tool said"))) throw new Error("final text missing from transcript");
    await checkpoint("done");
  },
};

export const scenarios: Scenario[] = [
  severalTools,
  textOnly,
  escapeSlowTool,
  permissionDenyThenApprove,
  clear,
  compact,
  subagentForeground,
  subagentBackground,
  subagentBackgroundLaterTurn,
  mcpTwoCalls,
  apiErrorsPrint,
  printText,
  printTool,
  renameResume,
  usageLimitPrint,
  apiUsageLimitPrint,
  awaySummary,
];

export function scenarioByName(name: string): Scenario {
  const s = scenarios.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scenario ${name}; known: ${scenarios.map((x) => x.name).join(", ")}`);
  return s;
}

export interface ScenarioRun {
  rig: Rig;
  /** The session id given with --session-id. */
  sessionId: string;
  durationMs: number;
  /** Kills what is left and removes the rig's temp folder. */
  dispose(): Promise<void>;
}

export interface RunScenarioOptions {
  checkpoint?: Checkpoint;
  /** Keep the rig (temp folder) after the run; the caller must dispose it. Default false. */
  keepRig?: boolean;
  /** Called once the rig exists, before the CLI starts (e.g. to learn its paths). `sessionId`
   * is the id the CLI is started with (`--session-id`). */
  onRig?: (rig: Rig, sessionId: string) => void;
}

/** Runs one scenario in a fresh rig. Interactive scenarios end with `/exit`. All processes are
 * killed before this returns or throws. */
export async function runScenario(scenario: Scenario, opts: RunScenarioOptions = {}): Promise<ScenarioRun> {
  const checkpoint = opts.checkpoint ?? (async () => {});
  const started = Date.now();
  const rig = await createRig({ script: scenario.script, files: scenario.files, env: scenario.env });
  const sessionId = randomUUID();
  try {
    opts.onRig?.(rig, sessionId);
    const extra = scenario.setup?.(rig) ?? {};
    const args = [...(scenario.args ?? []), ...(extra.args ?? [])];
    const env = { ...extra.env };
    if (scenario.mode === "interactive") {
      const session = await rig.startInteractive({ sessionId, args, env });
      try {
        await scenario.run(session, checkpoint, rig);
        await session.exit();
      } catch (err) {
        // The screen usually says why (an unexpected dialog, an error banner).
        if (err instanceof Error && !err.message.includes("Screen:")) err.message += `\nScreen:\n${session.screen.text()}`;
        throw err;
      } finally {
        await session.dispose();
      }
    } else {
      const id = sessionId;
      const printSession: PrintSession = {
        sessionId: id,
        rig,
        print: (prompt, o = {}) =>
          rig.runPrint(prompt, { sessionId: id, args: [...args, ...(o.args ?? [])], env: { ...env, ...o.env }, timeoutMs: o.timeoutMs }),
        transcriptPath: () => rig.transcriptPath(id),
        records: () => readRecords(rig.transcriptPath(id)),
      };
      await scenario.run(printSession, checkpoint, rig);
    }
  } catch (err) {
    await rig.dispose();
    throw err;
  }
  const run: ScenarioRun = { rig, sessionId, durationMs: Date.now() - started, dispose: () => rig.dispose() };
  if (!opts.keepRig) await rig.dispose();
  return run;
}

// Re-exported for tests that want to look at records the same way scenarios do.
export { blocks };
