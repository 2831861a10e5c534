/**
 * A repository's .vscode/settings.json is written by whoever wrote the repository (or by an agent
 * that was prompt-injected). Every setting that chooses what runs, with which arguments, or what
 * runs without asking must be one a workspace cannot set: VS Code ignores a workspace's value for
 * an `application` or `machine` setting.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

type Manifest = { contributes: { configuration: { properties: Record<string, { scope?: string }> } } };
const properties = (JSON.parse(readFileSync(join(__dirname, "../../../package.json"), "utf8")) as Manifest).contributes.configuration.properties;

describe("settings a workspace cannot set", () => {
  it.each([
    ["arcadia.claudePath", "which program starts as claude"],
    ["arcadia.extraArgs", "its arguments (a --settings file with hooks of the repository's own)"],
    ["arcadia.mcp.commandApproval", "whether commands ask"],
    ["arcadia.mcp.allowedCommands", "which commands run without asking"],
    ["arcadia.sandbox", "whether they run in the sandbox"],
    ["arcadia.sandboxReadablePaths", "what the sandbox may read"],
    ["arcadia.compare.check", "the command Run checks runs"],
    ["arcadia.worktree.setupCommand", "the command a queue's new worktree runs before its agent starts"],
    ["arcadia.agentSandbox", "whether the agents' shell commands run in Claude Code's sandbox, unasked"],
    ["arcadia.agentSandboxAllowedDomains", "which hosts those commands reach"],
    ["arcadia.budget.perAgent", "how much an agent may spend"],
    ["arcadia.budget.perDay", "how much all agents may spend today"],
    ["arcadia.budget.maxSubagents", "how many sub-agents an agent may run at once"],
  ])("%s (%s) is a user or machine setting only", (key) => {
    expect(["application", "machine"]).toContain(properties[key]?.scope);
  });
});
