/**
 * Folders a toolchain in the home folder needs readable inside the agents' sandbox: each PATH
 * entry (and where its links lead: nvm's and volta's shims), and the installation the first `node`
 * belongs to (`<prefix>` of `<prefix>/bin/node`: npm lives in its lib/). agentSandboxSettings keeps
 * only those inside home that are neither home nor a secret folder.
 */
import { realpath } from "node:fs/promises";
import { basename, delimiter, dirname } from "node:path";
import which from "which";

export async function toolchainFolders(path: string): Promise<string[]> {
  const entries = path.split(delimiter).filter(Boolean);
  const real = await Promise.all(entries.map((e) => realpath(e).catch(() => undefined)));
  const node = await which("node", { nothrow: true, path });
  const nodeReal = node ? await realpath(node).catch(() => undefined) : undefined;
  const prefix = nodeReal && basename(dirname(nodeReal)) === "bin" ? dirname(dirname(nodeReal)) : undefined;
  return [...entries, ...real.filter((r): r is string => r !== undefined), ...(prefix ? [prefix] : [])];
}
