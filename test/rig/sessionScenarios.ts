// Scenarios about a session's life beyond one launch: its title (/rename), a resumed session
// (`claude --resume <id>` appends to the same file), and a turn refused by a usage/rate limit.
import type { InteractiveScenario, PrintScenario } from "./scenarios.js";
import { isTurnEnd } from "./transcripts.js";

const bash = (command: string, description: string) => ({ name: "Bash", input: { command, description } });
const TURN_TIMEOUT = 45_000;

export const renameResume: InteractiveScenario = {
  name: "rename-resume",
  description: "A turn with a tool, /rename (a custom-title record), exit; then `claude --resume <id>` and a second turn in the same file.",
  mode: "interactive",
  args: ["--allowedTools", "Bash"],
  script: {
    conversations: [
      { match: "Plan the billing fix", perPrompt: true, steps: [{ tools: [bash("echo planned", "Print planned")] }, { text: "Done with this step." }] },
    ],
  },
  checkpoints: ["renamed", "resumed-turn"],
  async run(s, checkpoint, rig) {
    await s.submit("Plan the billing fix");
    await s.waitForRecords(isTurnEnd, { count: 1, timeoutMs: TURN_TIMEOUT, what: "turn end #1" });
    await s.submit("/rename Billing fix");
    await s.waitForRecords((r) => r.type === "custom-title", { what: "the custom-title record" });
    await checkpoint("renamed");
    await s.exit();
    const resumed = await rig.startInteractive({ resume: s.sessionId, args: ["--allowedTools", "Bash"] });
    try {
      await resumed.submit("Continue the billing fix");
      await s.waitForRecords(isTurnEnd, { count: 2, timeoutMs: TURN_TIMEOUT, what: "turn end #2 (after --resume, same file)" });
      await checkpoint("resumed-turn");
      await resumed.exit();
    } finally {
      await resumed.dispose();
    }
  },
};

/** What the API answers an account past its limit: 429, not to be retried, with the unified rate-limit headers a subscription gets. */
export const LIMIT_HEADERS = (resetEpochSeconds: number) => ({
  "x-should-retry": "false",
  "anthropic-ratelimit-unified-status": "rejected",
  "anthropic-ratelimit-unified-reset": String(resetEpochSeconds),
  "anthropic-ratelimit-unified-representative-claim": "five_hour",
});

/** The API's own refusal of an API key past its organisation's spend limit: 400, not retried, a sentence naming when access comes back. */
export const API_USAGE_LIMIT_MESSAGE = "You have reached your specified API usage limits. You will regain access on 2026-12-01 at 00:00 UTC.";

export const apiUsageLimitPrint: PrintScenario = {
  name: "api-usage-limit-print",
  description:
    "Print mode with an API key past its spend limit: every request is refused with 400 invalid_request_error and the API's sentence; the CLI ends the turn with a synthetic error reply quoting it.",
  mode: "print",
  script: {
    conversations: [
      {
        match: "Hit the spend limit",
        steps: [{ httpError: 400, times: 99, headers: { "x-should-retry": "false" }, message: API_USAGE_LIMIT_MESSAGE, then: { text: "never" } }],
      },
    ],
  },
  checkpoints: ["refused"],
  async run(p, checkpoint) {
    const result = await p.print("Hit the spend limit");
    if (result.exitCode === 0) throw new Error(`claude -p succeeded despite the limit: ${result.stdout}`);
    if (!p.records().some((r) => r.type === "assistant" && r.isApiErrorMessage === true)) throw new Error("no synthetic API error reply written");
    await checkpoint("refused");
  },
};

export const usageLimitPrint: PrintScenario = {
  name: "usage-limit-print",
  description: "Print mode with an API key: every request is refused with 429 (no retry): the CLI ends the turn with a synthetic rate_limit error reply.",
  mode: "print",
  env: { CLAUDE_CODE_MAX_RETRIES: "1" },
  script: {
    conversations: [
      {
        match: "Hit the usage limit",
        steps: [{ httpError: 429, times: 99, headers: LIMIT_HEADERS(Math.floor(Date.UTC(2026, 10, 26, 14) / 1000)), then: { text: "never" } }],
      },
    ],
  },
  checkpoints: ["refused"],
  async run(p, checkpoint) {
    const result = await p.print("Hit the usage limit");
    if (result.exitCode === 0) throw new Error(`claude -p succeeded despite the limit: ${result.stdout}`);
    if (!p.records().some((r) => r.type === "assistant" && r.isApiErrorMessage === true)) throw new Error("no synthetic API error reply written");
    await checkpoint("refused");
  },
};
