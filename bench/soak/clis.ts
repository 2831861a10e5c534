/**
 * The soak's 20 CLIs, in a process of their own (as CLIs are): started by bench/soak.ts with
 * `fork`, driven by messages (start, connect, turn, clear, abort, close), each answered when done.
 * Run alone it does nothing.
 */
import { join } from "node:path";
import { serveParentCommands } from "./childCommands";
import { type CliEnv, SimAgent } from "./simAgent";

export type CliCommand =
  | { type: "start"; configDir: string; workspace: string; projectDirs: string[]; agents: number; now: number }
  | { type: "connect"; url: string; tokens: Record<string, string> }
  | { type: "turn"; n: number; now: number }
  | { type: "clear"; now: number }
  | { type: "abort"; subject: string }
  | { type: "close" };

/** The answer to every command but abort: how many MCP calls failed unasked so far. */
export interface CliAnswer {
  done: CliCommand["type"];
  failures: number;
}

let env: CliEnv | undefined;
let agents: SimAgent[] = [];

async function run(command: CliCommand): Promise<void> {
  switch (command.type) {
    case "start":
      env = { configDir: command.configDir, workspace: command.workspace, now: command.now, clientCancels: new Map() };
      agents = Array.from({ length: command.agents }, (_, i) => new SimAgent(`agent-${i + 1}`, i, env as CliEnv, command.projectDirs[i % command.projectDirs.length] as string));
      for (const agent of agents) agent.start(false);
      break;
    case "connect":
      for (const agent of agents) await agent.connect(command.url, command.tokens[agent.id] as string);
      break;
    case "turn":
      (env as CliEnv).now = command.now;
      await Promise.all(agents.map((a) => a.turn(command.n)));
      break;
    case "clear":
      (env as CliEnv).now = command.now;
      for (const agent of agents) agent.clear();
      break;
    case "abort":
      env?.clientCancels.get(command.subject)?.abort("the client gave up");
      return;
    case "close":
      for (const agent of agents) await agent.disconnect();
      break;
  }
  const answer: CliAnswer = { done: command.type, failures: agents.reduce((n, a) => n + a.failures, 0) };
  process.send?.(answer);
  if (command.type === "close") process.disconnect?.();
}

serveParentCommands<CliCommand>("soak CLIs", run);

export const CLIS_ENTRY = join(__dirname, "clis.ts");
