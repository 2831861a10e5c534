/**
 * A simulated `claude` for the fifty-agent e2e (fiftyAgents.e2e.test.ts): fifty real CLIs do not fit
 * a 2-core machine, so most of the fifty terminals run this instead. Like the bench's simulated CLIs
 * (bench/soak/simAgent.ts) it reaches Arcadia only through the CLI's own doors, with what Arcadia's
 * launch gave it: `--session-id` names its transcript (`<config>/projects/<slug>/<id>.jsonl`), its
 * status file is `<config>/sessions/<pid>.json` with this process's real start time (so Arcadia
 * believes it), and the hooks go to the URL and headers of the `--settings` file. Plain JavaScript,
 * no imports from the repository: it runs under any Node in a VS Code terminal.
 *
 * `node simulatedClaude.mjs <role> [claude's argv…]`, role:
 * - `working`: one Bash call that never ends (PreToolUse told, status busy);
 * - `asking`: one Bash call that asks permission (PermissionRequest held open: the prompt stays on
 *   the panel), status waiting;
 * - `idle`: at its prompt, nothing asked.
 * It stays until its terminal closes (SIGHUP / SIGTERM), then removes its status file.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { request } from "node:http";

const [role = "idle", ...argv] = process.argv.slice(2);
const option = (name) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const sessionId = option("--session-id") ?? randomUUID();
const cwd = process.cwd();
const configDir = process.env.CLAUDE_CONFIG_DIR?.trim() || join(homedir(), ".claude");
const projectDir = join(configDir, "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"));
const transcript = join(projectDir, `${sessionId}.jsonl`);
const statusFile = join(configDir, "sessions", `${process.pid}.json`);

/** The hooks' address and the agent's headers, as the http PermissionRequest hook of `--settings` names them. */
function hookTarget() {
  try {
    const settings = JSON.parse(readFileSync(option("--settings") ?? "", "utf8"));
    const hook = settings.hooks?.PermissionRequest?.[0]?.hooks?.[0];
    return hook?.type === "http" ? { url: hook.url, headers: hook.headers ?? {} } : undefined;
  } catch {
    return undefined;
  }
}
const target = hookTarget();

/** Field 22 of /proc/self/stat: what the real CLI writes as `procStart`. */
function procStart() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}
const started = Date.now();
const start = procStart();

function status(word, waitingFor) {
  mkdirSync(join(configDir, "sessions"), { recursive: true });
  const now = Date.now();
  const file = {
    pid: process.pid,
    sessionId,
    cwd,
    procStart: start,
    status: word,
    kind: "interactive",
    startedAt: started,
    updatedAt: now,
    statusUpdatedAt: now,
  };
  writeFileSync(statusFile, JSON.stringify(waitingFor ? { ...file, waitingFor } : file));
}

const base = () => ({ sessionId, cwd, version: "2.1.330", isSidechain: false, uuid: randomUUID(), timestamp: new Date().toISOString() });
const append = (record) => appendFileSync(transcript, `${JSON.stringify(record)}\n`);

/**
 * POSTs one hook; resolves with the answer's body. node:http, not fetch: fetch gives up on an answer
 * after 5 minutes, and a PermissionRequest is answered only when someone decides (its abort would
 * read as "answered in the terminal" and take the prompt off the panel).
 */
function hook(fields) {
  if (!target) return Promise.resolve(undefined);
  const body = JSON.stringify({ session_id: sessionId, transcript_path: transcript, cwd, ...fields });
  return new Promise((resolve) => {
    const req = request(target.url, { method: "POST", headers: { "content-type": "application/json", ...target.headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve(text));
      res.on("error", () => resolve(undefined));
    });
    req.on("error", () => resolve(undefined));
    req.end(body);
  });
}

function stop() {
  rmSync(statusFile, { force: true });
  process.exit(0);
}
for (const signal of ["SIGHUP", "SIGTERM", "SIGINT"]) process.on(signal, stop);
// Stays until its terminal goes, as the CLI does.
setInterval(() => undefined, 60_000);

async function main() {
  mkdirSync(projectDir, { recursive: true });
  writeFileSync(transcript, "");
  process.stdout.write(`Simulated Claude Code (${role}), session ${sessionId}\n`);
  status("idle");
  if (role === "idle") return;
  const n = process.pid;
  const command = role === "asking" ? `touch simulated-${n}.txt` : `python3 -c "import time; time.sleep(100000)"  # simulated ${n}`;
  const input = { command, description: role === "asking" ? "Create a file" : "Work slowly" };
  const id = `toolu_sim_${n}`;
  status("busy");
  append({ ...base(), type: "user", message: { role: "user", content: `Simulated task of ${n}` } });
  await hook({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: input, tool_use_id: id });
  append({
    ...base(),
    type: "assistant",
    message: {
      id: `msg_${id}`,
      role: "assistant",
      content: [{ type: "tool_use", id, name: "Bash", input }],
      stop_reason: "tool_use",
      usage: { input_tokens: 1200, output_tokens: 80 },
    },
  });
  process.stdout.write(`● Bash(${command})\n`);
  if (role !== "asking") return;
  status("waiting", "permission prompt");
  process.stdout.write("Do you want to proceed? (answer in Arcadia's panel)\n");
  const answer = await hook({ hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: input, permission_suggestions: [] });
  process.stdout.write(`Answered: ${answer ?? "(nothing)"}\n`);
}

main().catch((err) => process.stdout.write(`simulated claude: ${err instanceof Error ? err.message : String(err)}\n`));
