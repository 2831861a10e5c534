/**
 * The fifty-agent bench's CLIs, in a process of their own (as CLIs are): the soak's simulated agents
 * (bench/soak/simAgent.ts: transcripts, status files, hooks, MCP calls) working at a model's pace,
 * each turn after the last, until told the time is up. Started by bench/fifty.ts with `fork`; each
 * command is answered when done. Run alone it does nothing.
 */
import { join } from "node:path";
import { serveParentCommands } from "../soak/childCommands";
import { type CliEnv, SimAgent } from "../soak/simAgent";

export type FiftyCommand =
  | { type: "start"; configDir: string; workspace: string; projectDir: string; agents: number }
  | { type: "connect"; url: string; tokens: Record<string, string> }
  /** Every agent works, turn after turn, for `seconds`; `thinkMs`: the mean pause before each step of a turn. */
  | { type: "work"; seconds: number; thinkMs: number }
  | { type: "abort"; subject: string }
  | { type: "close" };

export interface FiftyAnswer {
  done: FiftyCommand["type"];
  failures: number;
  turns: number;
}

let env: CliEnv | undefined;
let agents: SimAgent[] = [];
let turns = 0;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One agent's working spell: a first pause spreads the fifty apart, then turn after turn with a pause between. */
async function work(agent: SimAgent, until: number, thinkMs: number): Promise<void> {
  const think = () => sleep(thinkMs * (0.5 + Math.random()));
  await sleep(Math.random() * thinkMs * 4);
  for (let n = 0; performance.now() < until; n++) {
    (env as CliEnv).now = Date.now();
    await agent.turn(n, think);
    turns++;
    await sleep(thinkMs * (1 + Math.random()));
  }
}

async function run(command: FiftyCommand): Promise<void> {
  switch (command.type) {
    case "start":
      env = { configDir: command.configDir, workspace: command.workspace, now: Date.now(), clientCancels: new Map() };
      agents = Array.from({ length: command.agents }, (_, i) => new SimAgent(`agent-${i + 1}`, i, env as CliEnv, command.projectDir));
      for (const agent of agents) agent.start(false);
      break;
    case "connect":
      for (const agent of agents) await agent.connect(command.url, command.tokens[agent.id] as string);
      break;
    case "work": {
      const until = performance.now() + command.seconds * 1000;
      await Promise.all(agents.map((a) => work(a, until, command.thinkMs)));
      break;
    }
    case "abort":
      env?.clientCancels.get(command.subject)?.abort("the client gave up");
      return;
    case "close":
      for (const agent of agents) await agent.disconnect();
      break;
  }
  const answer: FiftyAnswer = { done: command.type, failures: agents.reduce((n, a) => n + a.failures, 0), turns };
  process.send?.(answer);
  if (command.type === "close") process.disconnect?.();
}

serveParentCommands<FiftyCommand>("fifty CLIs", run);

export const FIFTY_CLIS_ENTRY = join(__dirname, "clis.ts");
