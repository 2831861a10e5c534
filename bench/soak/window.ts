/**
 * One VS Code window's worth of Arcadia core for the soak: the loopback server (MCP with the real
 * tools, the tracker and the approval queue; the /hooks route with the hook feed and the
 * permission broker), the process monitor on the CLIs' status files, a follower per agent, a
 * project-folder watcher per project (for /clear), and the Sessions index. What the panel would
 * do is done by listeners here: approvals allowed (or cancelled from the "panel"), diffs accepted,
 * permission prompts allowed. close() is a window reload: everything goes, the agents' CLIs stay.
 */
import { ApprovalQueue } from "../../src/core/mcp/approvalQueue";
import { ToolCallTracker } from "../../src/core/mcp/toolCallTracker";
import { startLoopbackServer, type RunningLoopbackServer } from "../../src/core/server";
import { ProjectFolderWatcher } from "../../src/core/engine/projectFolderWatcher";
import { SessionFollower } from "../../src/core/engine/sessionFollower";
import { HookToolFeed } from "../../src/core/hooks/hookToolFeed";
import { PermissionBroker } from "../../src/core/hooks/permissionBroker";
import { ClaudeProcessMonitor } from "../../src/core/process/claudeProcessMonitor";
import type { ProcessInfo, ProcessTable } from "../../src/core/process/processTable";
import { SessionIndex } from "../../src/core/sessions/sessionIndex";
import { linkedResources, nodeWorkspaceFiles, registerArcadiaTools } from "../../src/core/tools";
import type { DiffDecision, DiffReviewer, ProposeChange, ToolPorts } from "../../src/core/tools/ports";
import { ProcessCommandRunner } from "../../src/core/tools/processCommandRunner";
import { type ManualClock, systemClock } from "../../src/core/util/clock";
import { DisposableStore } from "../../src/core/util/emitter";

/** What stays across reloads: folders, the engine's clock, the "processes" of the agents' CLIs. */
export interface SoakEnv {
  root: string;
  configDir: string;
  workspace: string;
  projectDirs: string[];
  indexFile: string;
  /** Simulated time for the engines' timers and the MCP session expiry. */
  clock: ManualClock;
  table: FakeProcessTable;
  /** Tells the CLI that made the call with this command to give up on it (bench/soak/clis.ts). */
  abortClientCall: (command: string) => void;
}

/** What a window needs to know of an agent (bench/soak/simAgent.ts). */
export interface WindowAgent {
  id: string;
  shellPid: number;
  transcript(): string;
  sessionId: string;
}

/** The agents' shells and CLIs, as the process table lists them (the real one is /proc). */
export class FakeProcessTable implements ProcessTable {
  readonly procs = new Map<number, ProcessInfo>();
  async list(): Promise<ProcessInfo[]> {
    return [...this.procs.values()].map((p) => ({ ...p }));
  }
  add(pid: number, ppid: number, name: string): void {
    this.procs.set(pid, { pid, ppid, name, startTime: `${pid}00` });
  }
}

/** Diffs accepted as soon as they are proposed (the user clicking Accept). */
class AcceptingReviewer implements DiffReviewer {
  private next = 1;
  private readonly waiting = new Map<string, (d: DiffDecision) => void>();
  propose(_change: ProposeChange) {
    const id = `diff-${this.next++}`;
    const decision = new Promise<DiffDecision>((resolve) => this.waiting.set(id, resolve));
    setImmediate(() => this.settle(id, "accept"));
    return { id, decision };
  }
  accept(id: string): void {
    this.settle(id, "accept");
  }
  reject(id: string): void {
    this.settle(id, "reject");
  }
  private settle(id: string, decision: DiffDecision): void {
    this.waiting.get(id)?.(decision);
    this.waiting.delete(id);
  }
}

/** The parts that exist before the server does (the server's routes use them). */
interface Parts {
  approvals: ApprovalQueue;
  tracker: ToolCallTracker;
  broker: PermissionBroker;
  hookFeed: HookToolFeed;
  commands: ProcessCommandRunner;
}

export class SoakWindow {
  readonly followers = new Map<string, SessionFollower>();
  readonly approvals: ApprovalQueue;
  readonly tracker: ToolCallTracker;
  readonly broker: PermissionBroker;
  readonly hookFeed: HookToolFeed;
  readonly index: SessionIndex;
  /** Transcripts the project-folder watchers announced (a /clear's new file). */
  announced = 0;
  private readonly commands: ProcessCommandRunner;
  private readonly subscriptions = new DisposableStore();
  private readonly monitor: ClaudeProcessMonitor;
  private readonly watchers: ProjectFolderWatcher[];

  private constructor(
    private readonly env: SoakEnv,
    readonly server: RunningLoopbackServer,
    parts: Parts,
  ) {
    ({ approvals: this.approvals, tracker: this.tracker, broker: this.broker, hookFeed: this.hookFeed, commands: this.commands } = parts);
    this.index = new SessionIndex(env.indexFile);
    this.monitor = new ClaudeProcessMonitor({ configDir: env.configDir, table: env.table, platform: "linux", isAlive: (pid) => env.table.procs.has(pid) });
    this.watchers = env.projectDirs.map((dir) => new ProjectFolderWatcher(dir));
  }

  /** A window starting: its server on `port` with `secret` (kept across reloads, as the extension does). */
  static async open(env: SoakEnv, agents: readonly WindowAgent[], opts: { port?: number; secret?: string; restore: boolean }): Promise<SoakWindow> {
    const approvals = new ApprovalQueue();
    const diffs = new AcceptingReviewer();
    const commands = new ProcessCommandRunner();
    const ports: ToolPorts = {
      files: nodeWorkspaceFiles([env.workspace]),
      commands,
      diffs,
      diagnostics: { get: () => [] },
      editor: { open: async () => undefined },
      approvals,
      commandApproval: () => ({ mode: "always", allowed: [] }),
    };
    const tracker = new ToolCallTracker(linkedResources(ports));
    const broker = new PermissionBroker();
    const hookFeed = new HookToolFeed();
    const server = await startLoopbackServer({
      tracker,
      registerTools: (addTool) => registerArcadiaTools(addTool, ports),
      hooks: (request) => (hookFeed.observe(request.agentId, request.input), broker.handleHook(request)),
      port: opts.port,
      windowSecret: opts.secret,
      clock: env.clock,
    });
    const window = new SoakWindow(env, server, { approvals, tracker, broker, hookFeed, commands });
    window.wirePanel();
    for (const watcher of window.watchers) {
      window.subscriptions.add(watcher.onDidAddTranscript(() => window.announced++));
      await watcher.start();
    }
    for (const agent of agents) {
      await window.follow(agent, opts.restore);
      window.subscriptions.add(
        window.monitor.track(agent.shellPid, (state, previous) => {
          // Agent.setProcess: a status change reads the transcript at once.
          const status = state.state === "running" ? state.status : undefined;
          const before = previous?.state === "running" ? previous.status : undefined;
          if (status !== before) void window.followers.get(agent.id)?.pump();
        }),
      );
    }
    return window;
  }

  /** Follows the agent's current session (a /clear: the old one ends, as Agent.follow does). */
  async follow(agent: WindowAgent, restore: boolean): Promise<void> {
    const old = this.followers.get(agent.id);
    if (old) await old.endSession();
    const follower = new SessionFollower(agent.transcript(), { clock: this.env.clock, pollClock: systemClock, restore });
    const sessionId = agent.sessionId;
    // hookToolsSync: a turn's end settles what the hooks announced for it.
    follower.onDidChange(({ events }) => {
      for (const event of events) if (event.kind === "turnEnd") this.hookFeed.turnOver(agent.id, sessionId, event.at);
    });
    this.hookFeed.keepOnly(agent.id, sessionId);
    this.followers.set(agent.id, follower);
    await follower.start();
  }

  /** The Sessions view opened: every session listed, then indexed. */
  async listSessions(): Promise<number> {
    const entries = await this.index.list(this.env.projectDirs);
    await this.index.fill(entries, () => undefined);
    return entries.length;
  }

  /** What this window holds now, beside the census: it must not grow with the hours. */
  holdings(): Record<string, number> {
    let hookTools = 0;
    for (const id of this.followers.keys()) hookTools += this.hookFeed.tools(id).length;
    return {
      calls: this.tracker.calls().length,
      approvals: this.approvals.pending().length,
      permissions: this.broker.pending().length,
      hookTools,
      mcpSessions: this.server.openSessions(),
      openTools: [...this.followers.values()].reduce((n, f) => n + f.state.activeTools.size, 0),
    };
  }

  /** A window reload (or closing it): everything of this window goes; the CLIs and their files stay. */
  async close(): Promise<void> {
    this.subscriptions.dispose();
    await Promise.all([...this.followers.values()].map((f) => f.stop()));
    for (const f of this.followers.values()) f.engine.dispose();
    this.followers.clear();
    await Promise.all(this.watchers.map((w) => w.stop()));
    await this.monitor.stop();
    this.broker.dispose();
    await this.server.close();
    this.commands.dispose();
  }

  /** The panel: approvals allowed or cancelled, permission prompts allowed. */
  private wirePanel(): void {
    this.subscriptions.add(
      this.approvals.onDidChange((change) => {
        if (change.type !== "added") return;
        const { id, subject, callId } = change.approval;
        setImmediate(() => {
          if (subject.includes("panel-cancel") && callId) this.tracker.cancelCall(callId);
          else if (subject.includes("client-cancel")) this.env.abortClientCall(subject);
          else this.approvals.decide(id, "allow");
        });
      }),
    );
    this.subscriptions.add(
      this.broker.onDidChange((change) => {
        if (change.type === "added") setImmediate(() => this.broker.decide(change.request.id, "allow"));
      }),
    );
  }
}
