/**
 * The one status truth a card, the status bar and notifications share. Sources, fastest truthful
 * first: what waits on the user (prompts on the card: Arcadia's approvals and diffs, Claude's
 * permission prompts relayed by hooks), compaction (PreCompact → PostCompact hooks), a prompt
 * Arcadia itself just submitted at the CLI's idle prompt (its status file says busy only once the
 * query starts, after the spinner: seconds on a loaded machine), the CLI's live status file
 * (exact), and the transcript as the fallback (hand-off lag, no status file, a
 * CLI too old to write one). Pure, so every combination is tested without processes.
 */
import type { AgentState } from "../../core/agent";
import type { AgentStatusView, NeedsYouView, PromptView } from "../../shared/protocol";
import type { ClaudeProcessState } from "../ports";

export interface DisplayStatus {
  status: AgentStatusView;
  /** `submitted`: working because Arcadia just submitted a prompt, not yet told by the status file. */
  source: "process" | "transcript" | "submitted";
  needsYou: NeedsYouView | null;
}

/** What the card knows beyond the transcript and the status file. */
export interface LiveStatusFacts {
  /** Kinds of the prompts open on the card now. */
  promptKinds: readonly PromptView["kind"][];
  /** A PreCompact hook came and its PostCompact has not. */
  compacting: boolean;
  /** Names of the tools running now (transcript and hooks): AskUserQuestion asks the user. */
  runningTools: readonly string[];
  /** Arcadia typed a prompt at the idle CLI and pressed Enter, and the status file has not been rewritten since. */
  submitted?: boolean;
}

const NO_FACTS: LiveStatusFacts = { promptKinds: [], compacting: false, runningTools: [] };
const QUESTION_TOOLS = new Set(["AskUserQuestion"]);

export function displayStatus(
  transcript: AgentState | undefined,
  process: ClaudeProcessState | undefined,
  exited: boolean,
  facts: LiveStatusFacts = NO_FACTS,
): DisplayStatus {
  const source = process?.state === "running" && process.status !== undefined ? "process" : "transcript";
  if (exited) return { status: "exited", source: "process", needsYou: null };
  const prompt = promptNeed(facts.promptKinds);
  if (prompt) return { status: "needsYou", source, needsYou: prompt };
  const asking = facts.runningTools.some((name) => QUESTION_TOOLS.has(name));
  if (process?.state === "running" && process.status !== undefined) {
    switch (process.status) {
      case "busy":
        return { status: facts.compacting ? "compacting" : "active", source, needsYou: null };
      case "idle":
        if (facts.submitted) return { status: "active", source: "submitted", needsYou: null };
        return { status: "waiting", source, needsYou: null };
      case "waiting":
        if (waitsOnPermission(process)) return { status: "needsYou", source, needsYou: { kind: "permission" } };
        return { status: "needsYou", source, needsYou: { kind: asking ? "question" : "dialog" } };
    }
  }
  if (asking) return { status: "needsYou", source, needsYou: { kind: "question" } };
  const status = transcript?.status ?? "starting";
  if (facts.compacting && status !== "starting") return { status: "compacting", source, needsYou: null };
  return { status, source, needsYou: null };
}

/** The prompt a card most needs answered: Claude's own first (its terminal waits), then approvals, then diffs. */
function promptNeed(kinds: readonly PromptView["kind"][]): NeedsYouView | null {
  if (kinds.includes("permission")) return { kind: "permission" };
  if (kinds.includes("command") || kinds.includes("path")) return { kind: "approval" };
  if (kinds.includes("write")) return { kind: "review" };
  return null;
}

/** `waitingFor` names what the CLI waits on; a permission prompt is the one the panel answers. */
export function waitsOnPermission(process: ClaudeProcessState | undefined): boolean {
  return process?.state === "running" && process.status === "waiting" && /permission/i.test(process.waitingFor ?? "");
}
