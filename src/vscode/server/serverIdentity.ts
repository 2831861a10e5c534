/**
 * The window's MCP/hook server keeps its port and window secret across window reloads: agents
 * started before the reload have their own tokens (derived from the secret) in their
 * `--mcp-config` and `--settings` files and reconnect (the server re-creates their MCP sessions).
 * The port lives in workspace state, the secret in VS Code's secret storage.
 */
import type * as vscode from "vscode";

const PORT_KEY = "arcadia.serverPort";
/** Versions before per-agent tokens wrote this value itself into every agent's launch files: it
 * must never become the secret agent tokens are derived from (those agents could mint any
 * agent's token), so it is deleted and a new secret is made under SECRET_KEY. */
const SHARED_TOKEN_KEY = "arcadia.serverToken";
const SECRET_KEY = "arcadia.serverSecret.v2";

export interface ServerIdentity {
  port: number | undefined;
  windowSecret: string | undefined;
  /** A token of the shared-token era was found (and deleted): agents launched with it need a restart. */
  hadSharedToken: boolean;
}

export async function loadServerIdentity(state: vscode.Memento, secrets: vscode.SecretStorage): Promise<ServerIdentity> {
  const port = state.get<unknown>(PORT_KEY);
  let windowSecret: string | undefined;
  let hadSharedToken = false;
  try {
    windowSecret = await secrets.get(SECRET_KEY);
    if ((await secrets.get(SHARED_TOKEN_KEY)) !== undefined) {
      hadSharedToken = true;
      await secrets.delete(SHARED_TOKEN_KEY);
    }
  } catch {
    // No keychain (some remote setups): a new secret; agents from before the reload lose the tools.
    windowSecret = undefined;
  }
  return { port: typeof port === "number" && Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined, windowSecret, hadSharedToken };
}

export async function saveServerIdentity(state: vscode.Memento, secrets: vscode.SecretStorage, port: number, windowSecret: string): Promise<void> {
  await state.update(PORT_KEY, port);
  try {
    await secrets.store(SECRET_KEY, windowSecret);
  } catch {
    // See loadServerIdentity.
  }
}
