/**
 * An agent's changes against its base, as its card says them (`3 files · +40 −12`): committed,
 * staged, unstaged and untracked files alike, compared with where the work tree branched from its
 * base (`git merge-base`). Computed from a snapshot commit (worktreeSnapshot.ts), so nothing in
 * the work tree is touched, in child processes, so the extension host never waits on it.
 */
import { git, nulFields } from "./gitRunner";
import { snapshotWorkTree } from "./worktreeSnapshot";

export interface FileChange {
  /** Relative to the repository root (for a rename: the new path). */
  path: string;
  /** For a rename, the path it had at the base. */
  from?: string;
  status: "added" | "modified" | "deleted" | "renamed";
  /** Lines; 0 for a binary file. */
  added: number;
  removed: number;
  binary: boolean;
}

export interface ChangeStats {
  /** The commit the changes are counted from. */
  base: string;
  /** The snapshot commit holding the work tree as it was when counted. */
  snapshot: string;
  files: FileChange[];
  added: number;
  removed: number;
}

const STATUS: Readonly<Record<string, FileChange["status"]>> = { A: "added", M: "modified", D: "deleted", R: "renamed", T: "modified", C: "added" };

/** The changes of `worktree` (its root) against `baseRef` (a branch or commit). */
export async function changeStats(worktree: string, baseRef: string): Promise<ChangeStats> {
  const snapshot = await snapshotWorkTree(worktree);
  const base = (await git(worktree, ["merge-base", baseRef, snapshot])).trim();
  const files = await diffBetween(worktree, base, snapshot);
  return { base, snapshot, files, added: sum(files, "added"), removed: sum(files, "removed") };
}

/** The files that differ from commit `from` to commit `to` (two agents' snapshots, say), renames found. */
export async function diffBetween(cwd: string, from: string, to: string): Promise<FileChange[]> {
  const diff = (format: string) => git(cwd, ["diff", format, "-z", "-M", from, to]);
  const [numstat, nameStatus] = await Promise.all([diff("--numstat"), diff("--name-status")]);
  const statusOf = parseNameStatus(nameStatus);
  return parseNumstat(numstat).map((f) => ({ ...f, status: statusOf.get(f.path) ?? "modified" }));
}

function sum(files: readonly FileChange[], key: "added" | "removed"): number {
  return files.reduce((total, f) => total + f[key], 0);
}

/** `--numstat -z`: `a\tr\tpath\0`, or for a rename `a\tr\t\0from\0to\0`; binary files give `-\t-`. */
export function parseNumstat(output: string): Omit<FileChange, "status">[] {
  const fields = nulFields(output);
  const out: Omit<FileChange, "status">[] = [];
  for (let i = 0; i < fields.length; i++) {
    const [added = "", removed = "", path = ""] = fields[i]!.split("\t");
    const binary = added === "-" && removed === "-";
    const counts = { added: binary ? 0 : Number(added), removed: binary ? 0 : Number(removed), binary };
    if (path !== "") out.push({ path, ...counts });
    else {
      const from = fields[++i] ?? "";
      out.push({ path: fields[++i] ?? "", from, ...counts });
    }
  }
  return out;
}

/** `--name-status -z`: `M\0path\0`, `R100\0from\0to\0`; path → status. */
export function parseNameStatus(output: string): Map<string, FileChange["status"]> {
  const fields = nulFields(output);
  const out = new Map<string, FileChange["status"]>();
  for (let i = 0; i < fields.length; i++) {
    const code = fields[i]!.charAt(0);
    if (code === "R" || code === "C") i++;
    const path = fields[++i];
    if (path !== undefined) out.set(path, STATUS[code] ?? "modified");
  }
  return out;
}
