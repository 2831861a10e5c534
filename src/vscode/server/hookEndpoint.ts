/**
 * What answers Claude Code's hooks for the agents Arcadia starts: every hook feeds the live tool
 * rows (HookToolFeed) and the permission prompts (PermissionBroker); an edit's PreToolUse passes
 * the collision guard first (its "ask" wins), and the budget's gate is in front of all (its "deny"
 * wins: a paused agent's call, a sub-agent beyond the limit). The parts are returned for the rest of the wiring.
 */
import type { BudgetBook } from "../../agents/budget/budgetBook";
import type { SpawnAlarm } from "../../agents/budget/spawnAlarm";
import { type BudgetDenial, withBudgetGate } from "../../core/budget";
import { CollisionGuard, type CollisionMode, nodeCollisionDisk, withCollisionGuard } from "../../core/collisions";
import { HookToolFeed, PermissionBroker } from "../../core/hooks";
import type { HookEndpoint } from "../../core/server";
import { vscode } from "../api";

export interface HookParts {
  permissions: PermissionBroker;
  hookTools: HookToolFeed;
  collisions: CollisionGuard;
  hooks: HookEndpoint;
}

export function createHookEndpoint(
  log: vscode.LogOutputChannel,
  agents: { isKnown(id: string): boolean; name(id: string): string | undefined },
  budget: BudgetBook,
  alarm: SpawnAlarm,
): HookParts {
  const permissions = new PermissionBroker({ log: (m) => log.info(m), isKnownAgent: (id) => agents.isKnown(id) });
  const hookTools = new HookToolFeed({ log: (m) => log.warn(m) });
  const folders = () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const collisions = new CollisionGuard(nodeCollisionDisk(folders), (m) => log.warn(m));
  const mode = () => vscode.workspace.getConfiguration("arcadia").get<CollisionMode>("collisions", "ask");
  const feed: HookEndpoint = (request) => (hookTools.observe(request.agentId, request.input), permissions.handleHook(request));
  const guarded = withCollisionGuard(feed, { guard: collisions, mode, agentName: (id) => agents.name(id) ?? "Another agent", log: (m) => log.info(m) });
  const hooks = withBudgetGate(guarded, {
    verdict: (id) => budget.verdict(id),
    maxSubagents: () => budget.settings.maxSubagents,
    subagents: budget.subagents,
    allowed: (id) => alarm.called(id),
    denied: (id, denial, input) => {
      log.info(`budget: denied a call of ${agents.name(id) ?? id} (${deniedWhy(denial)})`);
      hookTools.refused(id, input);
      budget.denied(id, denial);
    },
    log: (m) => log.warn(m),
  });
  return { permissions, hookTools, collisions, hooks };
}

/** "paused: $0.0523 spent of $0.05" (the overshoot, to the hundredth of a cent), "subagents: Agent over 5". */
function deniedWhy(denial: BudgetDenial): string {
  if (denial.kind === "subagents") return `subagents: ${denial.toolName} over ${denial.limit}`;
  return `paused: $${denial.verdict.spentUsd.toFixed(4)} spent of $${denial.verdict.capUsd.toFixed(2)}`;
}
