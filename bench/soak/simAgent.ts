/**
 * One simulated agent of the soak: what a Claude Code CLI does to Arcadia, through the same doors
 * (files and loopback HTTP). A turn: the status file goes busy, the transcript gets a prompt and
 * three tool calls (each announced by a PreToolUse hook and ended by a PostToolUse hook, one of
 * them asking permission through the PermissionRequest hook), one MCP call through the real SDK
 * client (read a file; run a command the panel allows; one the client cancels or the panel
 * cancels while its approval waits; write a file whose diff is accepted), a reply and the turn's
 * end; the status goes idle. A /clear starts a new session file and tells the status file.
 * They run in a process of their own (bench/soak/clis.ts), as CLIs do: what the soak counts in
 * the window's process is then Arcadia's alone.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AGENT_HEADER } from "../../src/core/server";
import { statusFilePath } from "../../src/core/process/statusFile";
import { clientTransport } from "../../test/support/mcpClient";

/** What the agents share: folders, the simulated time, the calls they cancel themselves. */
export interface CliEnv {
  configDir: string;
  workspace: string;
  /** Simulated time (ms since the epoch) for the records' timestamps. */
  now: number;
  /** Calls the agents cancel themselves (when the window shows their approval), by command text. */
  clientCancels: Map<string, AbortController>;
}

/** Agent `index`'s shell and claude pids (the window's fake process table lists the same). */
export const pidsOf = (index: number) => ({ shellPid: 40_000 + index, claudePid: 50_000 + index });

/** The session id of agent `index`'s `n`th session: UUID-shaped, as the CLI's are. */
export const sessionIdOf = (index: number, n: number) => `00000000-0000-4000-8${String(index).padStart(3, "0")}-00000000${String(n).padStart(4, "0")}`;

const line = (record: unknown) => `${JSON.stringify(record)}\n`;

export class SimAgent {
  sessionId: string;
  readonly shellPid: number;
  readonly claudePid: number;
  private client: Client | undefined;
  private transport: StreamableHTTPClientTransport | undefined;
  private token = "";
  private hooksUrl = "";
  private tools = 0;
  private sessions = 0;
  /** MCP calls that ended in an error other than the cancels asked for (should stay 0). */
  failures = 0;

  constructor(
    readonly id: string,
    readonly index: number,
    private readonly env: CliEnv,
    private readonly projectDir: string,
  ) {
    ({ shellPid: this.shellPid, claudePid: this.claudePid } = pidsOf(index));
    this.sessionId = sessionIdOf(index, this.sessions++);
  }

  transcript(): string {
    return join(this.projectDir, `${this.sessionId}.jsonl`);
  }

  /** Connects its MCP client (once: a CLI's client outlives a window reload, and recovers its session). */
  async connect(url: string, token: string): Promise<void> {
    this.transport = clientTransport(url, { authorization: `Bearer ${token}`, [AGENT_HEADER]: this.id });
    this.client = new Client({ name: `soak-${this.id}`, version: "1.0.0" });
    await this.client.connect(this.transport);
    this.token = token;
    this.hooksUrl = url.replace(/\/mcp$/, "/hooks");
  }

  async disconnect(): Promise<void> {
    await this.client?.close();
  }

  /** The session's first records: a new file, as the CLI writes it at its first prompt (or a /clear). */
  start(cleared: boolean): void {
    const records = cleared
      ? [this.record("user", { role: "user", content: "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>" })]
      : [];
    writeFileSync(this.transcript(), records.map(line).join(""));
    this.status("idle");
  }

  /** /clear: a new session file; the status file names it. */
  clear(): void {
    this.sessionId = sessionIdOf(this.index, this.sessions++);
    this.start(true);
  }

  /** `think`: waited before each tool call and the reply, as a model takes its time (the soak: none; the fifty-agent bench: seconds). */
  async turn(n: number, think: () => Promise<void> = async () => undefined): Promise<void> {
    this.status("busy");
    this.append(this.record("user", { role: "user", content: `Task ${n} of ${this.id}: look at the code and fix what is wrong` }));
    for (let k = 0; k < 3; k++) {
      await think();
      const id = `toolu_soak_${this.id}_${this.tools++}`;
      const input = { command: `echo step ${k}` };
      await this.hook({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: input, tool_use_id: id });
      if (k === 1) await this.hook({ hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: input, permission_suggestions: [] });
      this.append(this.record("assistant", { id: `msg_${id}`, role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input }], stop_reason: "tool_use", usage: { input_tokens: 1200, output_tokens: 80 } }));
      await this.hook({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: input, tool_use_id: id, tool_response: { stdout: `step ${k}` } });
      this.append(this.record("user", { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: `step ${k}\n${"output line\n".repeat(20)}` }] }));
    }
    await think();
    await this.mcpCall(n);
    await think();
    this.append(this.record("assistant", { id: `msg_reply_${this.tools}`, role: "assistant", content: [{ type: "text", text: "Done: the code is fixed." }], stop_reason: "end_turn" }));
    this.append({ ...this.base(), type: "system", subtype: "turn_duration", durationMs: 4000 });
    this.status("idle");
  }

  private async mcpCall(n: number): Promise<void> {
    const client = this.client as Client;
    const tag = `${this.id}-${n}`;
    try {
      switch (n % 5) {
        case 0:
          await client.callTool({ name: "read_file", arguments: { path: "README.md" } });
          return;
        case 1:
          await client.callTool({ name: "execute_command", arguments: { command: `echo soak-allow-${tag}` } });
          return;
        case 2: {
          const command = `echo soak-client-cancel-${tag}`;
          const abort = new AbortController();
          this.env.clientCancels.set(command, abort);
          await client.callTool({ name: "execute_command", arguments: { command } }, undefined, { signal: abort.signal }).catch(() => undefined);
          this.env.clientCancels.delete(command);
          return;
        }
        case 3:
          // Cancelled from the panel while its approval waits: the tool answers "cancelled".
          await client.callTool({ name: "execute_command", arguments: { command: `echo soak-panel-cancel-${tag}` } });
          return;
        default:
          await client.callTool({ name: "write_file", arguments: { path: `notes-${this.id}.md`, content: `Turn ${n}\n` } });
      }
    } catch {
      this.failures++;
    }
  }

  private async hook(fields: Record<string, unknown>): Promise<void> {
    const body = JSON.stringify({ session_id: this.sessionId, transcript_path: this.transcript(), cwd: this.env.workspace, ...fields });
    try {
      const response = await fetch(this.hooksUrl, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${this.token}`, [AGENT_HEADER]: this.id }, body });
      await response.text();
    } catch {
      // A window reloading: the CLI prints "hook failed" and carries on.
    }
  }

  private status(status: "idle" | "busy"): void {
    const file = statusFilePath(this.env.configDir, this.claudePid);
    writeFileSync(file, JSON.stringify({ pid: this.claudePid, procStart: `${this.claudePid}00`, sessionId: this.sessionId, cwd: this.env.workspace, status, kind: "interactive", updatedAt: Date.now() }));
  }

  private append(record: unknown): void {
    appendFileSync(this.transcript(), line(record));
  }

  private base() {
    return { sessionId: this.sessionId, cwd: this.env.workspace, version: "2.1.330", isSidechain: false, uuid: `u-${this.id}-${this.tools}-${Math.random()}`, timestamp: new Date(this.env.now).toISOString() };
  }

  private record(type: "user" | "assistant", message: object) {
    return { ...this.base(), type, message };
  }
}
