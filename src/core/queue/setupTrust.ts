/**
 * Which setup command makes a new worktree ready, and whose word lets it run. A setup command runs
 * as the user, outside any sandbox, before the agent starts: it must be the user's own.
 * - `arcadia.worktree.setupCommand` from the user's settings is theirs and runs. The same setting in a
 *   workspace's or folder's settings (`.vscode/settings.json`, which a cloned repository can ship)
 *   is never run: it is named, so the user can move it to their own settings if they mean it.
 * - A repository's own setup file, `.arcadia/worktree-setup.sh` (Arcadia's folder: not `.claude/`,
 *   which is the CLI's, nor a package script, which only some repositories have), runs only after
 *   the user has seen its exact text and said yes. The answer is remembered per repository and per
 *   hash of that text: a file changed by a commit asks again. What runs is the text that was
 *   shown (`sh -c <text>`, or bash for a bash shebang), never the file read a second time.
 * With both, the user's setting runs and the file is not (named, once).
 */
import { createHash } from "node:crypto";
import { visibleText } from "../util";

export const REPO_SETUP_FILE = ".arcadia/worktree-setup.sh";
/** A setup a person can read through before saying yes. */
export const MAX_SETUP_FILE_BYTES = 64 * 1024;

/** The repository's setup file as the new worktree has it. */
export type RepoSetupFile = { text: string } | { problem: string } | undefined;

export type SetupAnswer = "run" | "skip";

/** The user's answers, per repository root, per hash of the file's text (newest last). */
export type SetupAnswers = Record<string, Record<string, SetupAnswer>>;

export interface SetupInputs {
  repo: string;
  /** `arcadia.worktree.setupCommand` from the user's (global) settings only. */
  userCommand: string | undefined;
  /** The same setting as the workspace or a folder sets it: never run. */
  workspaceCommand: string | undefined;
  repoFile: RepoSetupFile;
  answers: SetupAnswers;
}

export type SetupPlan =
  | { kind: "none"; notes: string[] }
  | { kind: "run"; source: "user" | "repoFile"; argv: string[]; shown: string; notes: string[] }
  | { kind: "ask"; hash: string; question: string; shown: string; argv: string[]; notes: string[] }
  | { kind: "refused"; problem: string; notes: string[] };

export const setupHash = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** Each line as the user will see it: control, bidi and invisible characters escaped, so what is shown is what runs. */
export const shownSetup = (text: string) => text.split("\n").map(visibleText).join("\n");

const BASH_SHEBANG = /^#!\s*(?:\/usr)?\/bin\/(?:env\s+)?bash\b/;

/** How a setup's text runs: exactly that text, as a `-c` argument (never the file read again). */
export function setupArgv(text: string, label: string): string[] {
  return [BASH_SHEBANG.test(text) ? "bash" : "sh", "-c", text, label];
}

export function setupPlan(input: SetupInputs): SetupPlan {
  const notes: string[] = [];
  const workspace = input.workspaceCommand?.trim();
  if (workspace && workspace !== input.userCommand?.trim())
    notes.push(
      "The workspace's settings set arcadia.worktree.setupCommand; it is not run: a repository's settings could run anything. " +
        "Put it in your user settings if you mean it.",
    );
  const user = input.userCommand?.trim();
  if (user) {
    if (input.repoFile && "text" in input.repoFile) notes.push(`${REPO_SETUP_FILE} is not run: your setting arcadia.worktree.setupCommand is.`);
    return { kind: "run", source: "user", argv: setupArgv(user, "arcadia.worktree.setupCommand"), shown: shownSetup(user), notes };
  }
  const file = input.repoFile;
  if (!file) return { kind: "none", notes };
  if ("problem" in file) return { kind: "refused", problem: file.problem, notes };
  const hash = setupHash(file.text);
  const shown = shownSetup(file.text);
  const argv = setupArgv(file.text, REPO_SETUP_FILE);
  const answer = input.answers[input.repo]?.[hash];
  if (answer === "run") return { kind: "run", source: "repoFile", argv, shown, notes };
  if (answer === "skip") return { kind: "none", notes: [...notes, `${REPO_SETUP_FILE} is not run: you said not to for this version of it.`] };
  const changed = Object.values(input.answers[input.repo] ?? {}).includes("run");
  const question =
    `${changed ? `${REPO_SETUP_FILE} changed since you allowed it. ` : ""}This repository's ${REPO_SETUP_FILE} asks to run in each new worktree ` +
    "before its agent starts, as you, outside any sandbox. Run exactly this text?";
  return { kind: "ask", hash, question, shown, argv, notes };
}

/** At most this many versions remembered per repository (newest kept). */
export const MAX_ANSWERS_PER_REPO = 20;

export function rememberAnswer(answers: SetupAnswers, repo: string, hash: string, answer: SetupAnswer): SetupAnswers {
  const entries = Object.entries(answers[repo] ?? {}).filter(([h]) => h !== hash);
  entries.push([hash, answer]);
  return { ...answers, [repo]: Object.fromEntries(entries.slice(-MAX_ANSWERS_PER_REPO)) };
}

const HASH = /^[0-9a-f]{64}$/;

/** Answers as kept (global state), read leniently: anything not a repository → hash → run|skip is dropped. */
export function readAnswers(raw: unknown): SetupAnswers {
  const out: SetupAnswers = {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return out;
  for (const [repo, byHash] of Object.entries(raw)) {
    if (typeof byHash !== "object" || byHash === null) continue;
    const kept = Object.entries(byHash).filter(([h, a]) => HASH.test(h) && (a === "run" || a === "skip"));
    if (kept.length > 0) out[repo] = Object.fromEntries(kept.slice(-MAX_ANSWERS_PER_REPO)) as Record<string, SetupAnswer>;
  }
  return out;
}
