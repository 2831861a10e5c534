/**
 * The window's MCP/hook server keeps its port and token across window reloads: agents started
 * before the reload have them in their `--mcp-config` and `--settings` files and reconnect (the
 * server re-creates their MCP sessions). The port lives in workspace state, the token in VS Code's
 * secret storage.
 */
import type * as vscode from "vscode";

const PORT_KEY = "arcadia.serverPort";
const TOKEN_KEY = "arcadia.serverToken";

export interface ServerIdentity {
  port: number | undefined;
  token: string | undefined;
}

export async function loadServerIdentity(state: vscode.Memento, secrets: vscode.SecretStorage): Promise<ServerIdentity> {
  const port = state.get<unknown>(PORT_KEY);
  let token: string | undefined;
  try {
    token = await secrets.get(TOKEN_KEY);
  } catch {
    // No keychain (some remote setups): a new token; agents from before the reload lose the tools.
    token = undefined;
  }
  return { port: typeof port === "number" && Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined, token };
}

export async function saveServerIdentity(state: vscode.Memento, secrets: vscode.SecretStorage, port: number, token: string): Promise<void> {
  await state.update(PORT_KEY, port);
  try {
    await secrets.store(TOKEN_KEY, token);
  } catch {
    // See loadServerIdentity.
  }
}
