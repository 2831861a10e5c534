/**
 * The file an allow-listed command's program name runs, found as a shell would on PATH, but
 * only in absolute folders outside the workspace: a relative PATH entry (`.`, `node_modules/.bin`)
 * or one inside the workspace would let a file the agent can write stand in for `ls`. A name
 * with a slash is a path from the command's folder. Undefined when there is none (a shell
 * builtin such as cmd's `echo`): the caller asks, and the shell runs it after the Allow.
 */
import { realpath } from "node:fs/promises";
import { delimiter, isAbsolute, resolve } from "node:path";
import which from "which";
import { isInside } from "../util";

export async function programPath(name: string, cwd: string, folders: readonly string[], path: string | undefined): Promise<string | undefined> {
  if (name.includes("/") || (process.platform === "win32" && name.includes("\\"))) return resolve(cwd, name);
  const safe: string[] = [];
  for (const entry of (path ?? "").split(delimiter)) {
    if (!isAbsolute(entry)) continue;
    const real = await realpath(entry).catch(() => undefined);
    if (real !== undefined && !folders.some((folder) => isInside(real, folder))) safe.push(entry);
  }
  return (await which(name, { path: safe.join(delimiter), nothrow: true })) ?? undefined;
}
