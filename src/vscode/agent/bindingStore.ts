/** Agent bindings in the workspace's state, so cards come back after a window reload. */
import type * as vscode from "vscode";
import type { AgentBinding, BindingStore } from "../../agents/ports";

const KEY = "arcadia.agents";

function isBinding(value: unknown): value is AgentBinding {
  const b = value as Partial<AgentBinding> | null;
  return (
    typeof b === "object" &&
    b !== null &&
    typeof b.agentId === "string" &&
    typeof b.name === "string" &&
    typeof b.index === "number" &&
    typeof b.sessionId === "string" &&
    typeof b.cwd === "string" &&
    typeof b.terminalName === "string" &&
    (b.shellPid === undefined || typeof b.shellPid === "number") &&
    isOptionalStrings(b.launchFiles) &&
    isOptionalStrings(b.launchArgs) &&
    (b.sandboxed === undefined || typeof b.sandboxed === "boolean")
  );
}

function isOptionalStrings(value: unknown): boolean {
  return value === undefined || (Array.isArray(value) && value.every((v) => typeof v === "string"));
}

export class WorkspaceBindingStore implements BindingStore {
  constructor(private readonly state: vscode.Memento) {}

  load(): AgentBinding[] {
    const raw = this.state.get<unknown>(KEY, []);
    // Written by an older or newer version, or by hand: keep what is valid.
    return Array.isArray(raw) ? raw.filter(isBinding) : [];
  }

  async save(bindings: AgentBinding[]): Promise<void> {
    await this.state.update(KEY, bindings);
  }
}
