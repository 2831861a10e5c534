/**
 * Arcadia's execute_command behind the real MCP server (toolHarness.ts) with the approval settings
 * a user has by default: "unlessAllowListed" and the allow-list shipped in package.json (read from
 * it, so a change of the defaults is tested as shipped). Every approval is answered Deny and
 * remembered with its reason: an attack that asks instead of running leaves its marker absent.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Approval } from "../../../src/core/mcp/approvalQueue";
import type { CommandApprovalSettings } from "../../../src/core/tools/commandApproval";
import { type Harness, startHarness } from "../tools/toolHarness";

export function shippedApprovalSettings(): CommandApprovalSettings {
  const pkg = JSON.parse(readFileSync(join(__dirname, "../../../package.json"), "utf8")) as {
    contributes: { configuration: { properties: Record<string, { default: unknown }> } };
  };
  const props = pkg.contributes.configuration.properties;
  return { mode: props["arcadia.mcp.commandApproval"]?.default as CommandApprovalSettings["mode"], allowed: props["arcadia.mcp.allowedCommands"]?.default as string[] };
}

export interface PolicyHarness extends Harness {
  /** Approvals asked so far (all answered Deny). */
  asked: Approval[];
}

/** `sandbox`: as startHarness takes it (default: the real one, where bubblewrap runs). */
export async function startPolicyHarness(opts: Pick<Parameters<typeof startHarness>[0] & object, "sandbox" | "agentCwd"> = {}): Promise<PolicyHarness> {
  const h = await startHarness({ commandApproval: shippedApprovalSettings(), ...opts });
  const asked: Approval[] = [];
  h.approvals.onDidChange((c) => void (c.type === "added" && asked.push(c.approval)));
  h.answerApprovals("deny");
  return Object.assign(h, { asked });
}
