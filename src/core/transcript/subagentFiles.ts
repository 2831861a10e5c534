/**
 * Finding a session's sub-agent transcripts and the `Agent` call each one belongs to.
 *
 * Current CLIs: `<project>/<session>/subagents/agent-<id>.jsonl`, with `agent-<id>.meta.json`
 * beside it naming the parent's tool_use (`toolUseId`). CLIs around 2.0 wrote a flat
 * `<project>/agent-<id>.jsonl` carrying the parent's `sessionId` and no meta file; those are
 * linked by the prompt the sub-agent was given (see TranscriptInterpreter.claimAgentCall).
 */
import { access, constants, lstat, open, readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { isObject } from "./recordShapes";

export interface SubagentFile {
  agentId: string;
  path: string;
  /** The parent's `Agent`/`Task` tool_use id, when a meta file says so. */
  parentToolId: string | null;
}

const AGENT_FILE = /^agent-(.+)\.jsonl$/;

/** `agent-<id>.jsonl` → `<id>`; undefined for any other name. */
export function agentIdOfFile(name: string): string | undefined {
  return AGENT_FILE.exec(name)?.[1];
}

export function sessionIdOf(transcriptPath: string): string {
  return basename(transcriptPath).replace(/\.jsonl$/, "");
}

export function subagentDirOf(transcriptPath: string): string {
  return join(dirname(transcriptPath), sessionIdOf(transcriptPath), "subagents");
}

/** Reads `agent-<id>.meta.json`; a missing or malformed meta file means "not linked yet". */
export async function readSubagentMeta(jsonlPath: string): Promise<string | null> {
  try {
    const meta: unknown = JSON.parse(await readFile(jsonlPath.replace(/\.jsonl$/, ".meta.json"), "utf8"));
    return isObject(meta) && typeof meta.toolUseId === "string" ? meta.toolUseId : null;
  } catch {
    return null;
  }
}

/**
 * Why an `agent-*.jsonl` entry cannot be followed (a folder, a dangling link, no read
 * permission, gone since it was listed), or undefined for a readable file. Anything can sit in
 * that folder; an entry that is not a file must never stop the session's own file being read.
 */
export async function unreadableReason(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return info.isDirectory() ? "a folder, not a file" : "not a regular file";
    await access(path, constants.R_OK);
    return undefined;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "ENOENT") {
      const link = await lstat(path).then(
        (l) => l.isSymbolicLink(),
        () => false,
      );
      return link ? "a link to nothing" : "gone since it was listed";
    }
    if (code === "EACCES" || code === "EPERM") return "permission denied";
    return `cannot be read (${code ?? String(err)})`;
  }
}

async function listAgentFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => AGENT_FILE.test(name)).sort();
  } catch {
    return [];
  }
}

/** The first line of a file (up to 64 KB), to read a flat agent file's `sessionId`. */
async function firstLine(path: string): Promise<string> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString("utf8");
    const end = text.indexOf("\n");
    return end < 0 ? text : text.slice(0, end);
  } finally {
    await handle.close();
  }
}

/** `onSkip` hears about every nested entry that is not a readable file (it is left out). */
export async function findSubagentFiles(transcriptPath: string, onSkip: (path: string, reason: string) => void = () => {}): Promise<SubagentFile[]> {
  const found: SubagentFile[] = [];
  const nested = subagentDirOf(transcriptPath);
  for (const name of await listAgentFiles(nested)) {
    const path = join(nested, name);
    const problem = await unreadableReason(path);
    if (problem) {
      onSkip(path, problem);
      continue;
    }
    found.push({ agentId: agentIdOfFile(name) ?? name, path, parentToolId: await readSubagentMeta(path) });
  }
  // The older flat layout, beside the session's own file.
  const sessionId = sessionIdOf(transcriptPath);
  for (const name of await listAgentFiles(dirname(transcriptPath))) {
    const path = join(dirname(transcriptPath), name);
    if (path === transcriptPath) continue;
    try {
      const record: unknown = JSON.parse(await firstLine(path));
      if (isObject(record) && record.sessionId === sessionId) {
        found.push({ agentId: agentIdOfFile(name) ?? name, path, parentToolId: null });
      }
    } catch {
      // Unreadable or malformed: not ours to follow.
    }
  }
  return found;
}
