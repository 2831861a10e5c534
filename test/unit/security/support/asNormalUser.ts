/**
 * Running a sandboxed command and the look after it as a normal user (uid 65534, through setpriv)
 * from tests that run as root: what an extension host that is not root can read, and what its
 * sandbox is made of, differ from root's (root reads every folder and secret, whatever its mode).
 * The command and the look run in a child process (test/support/leftBehindChild.ts).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const NOBODY = 65534;
const CHILD = join(__dirname, "..", "..", "..", "support", "leftBehindChild.ts");
const REPO = join(__dirname, "..", "..", "..", "..");
const AS_NOBODY = ["--reuid", String(NOBODY), "--regid", String(NOBODY), "--clear-groups"];

/** Why the command cannot be run as a normal user here, or undefined when it can. */
export function cannotRunAsUser(): string | undefined {
  if (process.platform !== "linux") return "not Linux";
  if (process.getuid?.() !== 0) return "the tests do not run as root, so they cannot start the look as another user (setpriv)";
  const probe = spawnSync("setpriv", [...AS_NOBODY, "true"]);
  if (probe.status !== 0) return `setpriv cannot switch to uid ${NOBODY} here: ${probe.error?.message ?? probe.stderr.toString().trim()}`;
  return undefined;
}

const made: string[] = [];

/** A workspace owned by the normal user, with `prepare` run in it first (as that user). */
export function workspaceOfUser(prepare = "true"): string {
  const base = mkdtempSync(join(tmpdir(), "arcadia-as-user-"));
  made.push(base);
  chmodSync(base, 0o755);
  const workspace = join(base, "ws");
  mkdirSync(workspace);
  writeFileSync(join(workspace, "package.json"), "{}\n");
  chownSync(workspace, NOBODY, NOBODY);
  chownSync(join(workspace, "package.json"), NOBODY, NOBODY);
  execFileSync("setpriv", [...AS_NOBODY, "/bin/sh", "-c", prepare], { cwd: workspace, env: { ...process.env, HOME: "/nonexistent" } });
  return workspace;
}

/** Removes the workspaces made (their modes first: a test leaves folders at 000). */
export function removeWorkspaces(): void {
  for (const base of made.splice(0)) {
    execFileSync("chmod", ["-R", "u+rwx", base]);
    rmSync(base, { recursive: true, force: true });
  }
}

export interface RunAsUser {
  end: { kind: string; exitCode?: number };
  found: { path: string; said: string; unchecked?: boolean; root?: boolean }[];
  output: string;
  args: string[];
}

/** `script` run unasked in the sandbox, then the look afterwards, both as the normal user. */
export function runAsUser(ws: string, script: string): RunAsUser {
  const out = execFileSync("setpriv", [...AS_NOBODY, process.execPath, "--import", "tsx", CHILD, ws, script], {
    cwd: REPO,
    encoding: "utf8",
    env: { ...process.env, HOME: "/nonexistent" },
  });
  return JSON.parse(out.trim().split("\n").pop() ?? "") as RunAsUser;
}
