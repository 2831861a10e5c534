/**
 * Review comments between the reviewer and the agents, in plain Node with real files: a send
 * waits while the agent works and goes once it is idle, typed once at that agent's prompt only;
 * the turn that answers says which threads were addressed (their lines changed); a closed agent
 * keeps its drafts and says so; threads come back from what was saved.
 */
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentChange, TranscriptEventsRead } from "../../../src/agents/agent/agentRegistry";
import type { TerminalHandle } from "../../../src/agents/ports";
import { ReviewDesk } from "../../../src/agents/review/reviewDesk";
import type { AgentReview } from "../../../src/core/review/reviewBook";
import { readSavedReviews } from "../../../src/core/review/savedReviews";
import { threadLabel } from "../../../src/core/review/threadLabel";
import type { TranscriptEvent } from "../../../src/core/transcript/events";
import { Emitter } from "../../../src/core/util/emitter";
import type { AgentFacts } from "../../../src/shared/protocol";
import { memoryLog } from "../../support/fakeTerminals";
import { useTempDirs } from "../../support/tempDir";
import { waitForChange } from "../../support/waitFor";
import { handCards } from "../../support/cardEvents";

const tempDir = useTempDirs();

/** A terminal that records what is typed at its prompt. */
function terminal(): TerminalHandle & { typed: string[] } {
  const typed: string[] = [];
  const nothing = () => undefined;
  return { name: "t", typed, processId: async () => 1, show: nothing, run: nothing, dispose: nothing, type: async (text) => void typed.push(text) };
}

function world(saved?: AgentReview[], confirmQueuedSend?: (agentId: string, name: string, comments: number) => Promise<boolean>) {
  const dir = tempDir();
  const changes = new Emitter<AgentChange>();
  const cards = handCards((id) => agents.get(id)?.view);
  const transcripts = new Emitter<TranscriptEventsRead>();
  const agents = new Map<string, { view: AgentFacts; cwd: string; terminal: ReturnType<typeof terminal> }>();
  const add = (id: string, name: string, status: AgentFacts["status"]) => {
    const view = { id, name, status, statusSource: "process", reconnecting: false } as AgentFacts;
    agents.set(id, { view, cwd: dir, terminal: terminal() });
    return agents.get(id)!;
  };
  const setStatus = (id: string, status: AgentFacts["status"]) => {
    const agent = agents.get(id)!;
    const before = agent.view.status;
    agent.view = { ...agent.view, status };
    if (before === "active" && status === "waiting") cards.finish(agent.view);
    else cards.change(agent.view);
  };
  const saves: AgentReview[][] = [];
  const unreadable = new Set<string>();
  const answered: string[] = [];
  const answeredNow = new Emitter<void>();
  const closedNotices: string[] = [];
  const log = memoryLog();
  const desk = new ReviewDesk({
    agents: {
      agentInfo: (id) => {
        const a = agents.get(id);
        return a && { name: a.view.name, cwd: a.cwd, terminal: a.terminal };
      },
      onDidChange: changes.event,
      onDidReadTranscript: transcripts.event,
    },
    readFile: (path) => (unreadable.has(path) ? Promise.reject(new Error("EACCES: permission denied")) : readFile(path, "utf8").catch(() => null)),
    save: async (reviews) => void saves.push(JSON.parse(JSON.stringify(reviews)) as AgentReview[]),
    saved,
    log,
    onAnswered: (id) => (answered.push(id), answeredNow.fire()),
    onClosedWithDrafts: (_id, name, drafts) => closedNotices.push(`${name}: ${drafts}`),
    confirmQueuedSend,
  });
  desk.followCards(cards);
  const write = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
  const events = (agentId: string, list: TranscriptEvent[]) => transcripts.fire({ agentId, events: list });
  const until = <T>(probe: () => T | undefined | false, what: string) =>
    waitForChange(
      (on) => {
        const subscriptions = [desk.onDidChange(on), answeredNow.event(on)];
        return () => subscriptions.forEach((d) => d.dispose());
      },
      probe,
      5000,
      what,
    );
  return { dir, desk, add, setStatus, write, events, until, saves, answered, closedNotices, changes, agents, log, unreadable };
}

const APP = ["import x;", "", 'export const title = "base";', "export const size = 1;", ""].join("\n");
const README = ["# Sample", "", "Some words.", ""].join("\n");

describe("review comments sent to an agent", () => {
  it("a send while the agent works is queued ('will send when idle'), typed once when it is idle, at its own prompt only", async () => {
    const w = world();
    const a1 = w.add("a1", "Agent #1", "active");
    const a2 = w.add("a2", "Agent #2", "waiting");
    const app = w.write("App.tsx", APP);
    w.desk.comment("a1", app, APP, 2, 2, "Use a constant.");
    w.desk.comment("a2", app, APP, 3, 3, "Agent two's own comment.");

    expect(await w.desk.send("a1")).toBe("queued");
    expect(a1.terminal.typed).toEqual([]);
    expect(w.desk.reviewComments("a1")).toEqual({ total: 1, drafts: 0, queued: 1, awaiting: 0, addressed: 0, unaddressed: 0 });
    // Still working: an update that is not idle sends nothing.
    w.setStatus("a1", "needsYou");
    w.setStatus("a1", "active");
    expect(a1.terminal.typed).toEqual([]);

    w.setStatus("a1", "waiting");
    await w.until(() => w.desk.reviewComments("a1")?.awaiting === 1, "a1's comments sent");
    w.setStatus("a1", "waiting");
    expect(a1.terminal.typed).toHaveLength(1);
    expect(a1.terminal.typed[0]).toContain('[1] App.tsx line 3, which reads `export const title = "base";`: Use a constant.');
    expect(a1.terminal.typed[0]).not.toContain("Agent two's own comment.");
    expect(a2.terminal.typed).toEqual([]);
    expect(w.desk.reviewComments("a2")).toMatchObject({ drafts: 1, awaiting: 0 });
  });

  it("never types into a terminal whose claude is not known to be at its prompt (exited: a shell there would run the text)", async () => {
    const w = world();
    const agent = w.add("a1", "Agent #1", "waiting");
    // Its status from the transcript only: the process is gone or not found (the terminal may be a shell now).
    agent.view = { ...agent.view, statusSource: "transcript" };
    const app = w.write("App.tsx", APP);
    w.desk.comment("a1", app, APP, 2, 2, "Use a constant.");
    expect(await w.desk.send("a1")).toBe("queued");
    w.setStatus("a1", "exited");
    w.setStatus("a1", "waiting");
    expect(agent.terminal.typed).toEqual([]);
  });

  it("an idle agent gets the comments at once; the turn that answers says which threads were addressed", async () => {
    const w = world();
    const agent = w.add("a1", "Agent #1", "waiting");
    const app = w.write("App.tsx", APP);
    const readme = w.write("README.md", README);
    w.desk.comment("a1", app, APP, 2, 2, "Use a constant.");
    w.desk.comment("a1", readme, README, 0, 0, "Say what it is.");
    expect(w.desk.reviewComments("a1")).toMatchObject({ total: 2, drafts: 2 });

    expect(await w.desk.send("a1")).toBe("sent");
    const [message] = agent.terminal.typed;
    expect(message).toContain("App.tsx line 3");
    expect(message).toContain("README.md line 1, which reads `# Sample`: Say what it is.");
    expect(w.desk.reviewComments("a1")).toMatchObject({ awaiting: 2, drafts: 0 });

    // The previous turn's end, read late, is not the answer.
    w.events("a1", [{ kind: "turnEnd" }]);
    w.setStatus("a1", "active");
    w.setStatus("a1", "waiting");
    expect(w.answered).toEqual([]);

    // The agent changes the title line and adds a line above the README's heading.
    w.write("App.tsx", APP.replace('"base"', '"from review"'));
    w.write("README.md", `<!-- top -->\n${README}`);
    w.events("a1", [{ kind: "prompt", text: message!, source: "user", at: Date.now() }]);
    w.events("a1", [{ kind: "turnEnd" }]);
    await w.until(() => w.answered.length === 1, "the answer looked at");
    expect(w.desk.reviewComments("a1")).toEqual({ total: 2, drafts: 0, queued: 0, awaiting: 0, addressed: 1, unaddressed: 1 });
    const [title, heading] = w.desk.book.threads("a1");
    expect(title?.outcome).toBe("addressed");
    expect(heading).toMatchObject({ outcome: "unaddressed", anchor: { line: 1 } });
  });

  it("a file the agent deleted counts as addressed; a resolved thread is no longer counted", async () => {
    const w = world();
    w.add("a1", "Agent #1", "waiting");
    const gone = w.write("gone.ts", "a\nb\n");
    const kept = w.write("kept.ts", "c\nd\n");
    w.desk.comment("a1", gone, "a\nb\n", 1, 1, "Drop this file.");
    const keptThread = w.desk.comment("a1", kept, "c\nd\n", 0, 0, "Fine?")!;
    await w.desk.send("a1");
    const { rmSync } = await import("node:fs");
    rmSync(gone);
    w.events("a1", [{ kind: "prompt", text: "Review comments on your changes (2): …", source: "user" }, { kind: "turnEnd" }]);
    await w.until(() => w.answered.length === 1, "the answer looked at");
    expect(w.desk.reviewComments("a1")).toMatchObject({ total: 2, addressed: 1, unaddressed: 1 });
    w.desk.book.setResolved("a1", keptThread.id, true);
    expect(w.desk.reviewComments("a1")).toMatchObject({ total: 1, addressed: 1, unaddressed: 0 });
  });

  it("nothing is typed into a terminal whose claude exited; a closed agent keeps its drafts, says so, and nothing can be sent", async () => {
    const w = world();
    const agent = w.add("a1", "Agent #1", "exited");
    const app = w.write("App.tsx", APP);
    w.desk.comment("a1", app, APP, 2, 2, "Use a constant.");
    expect(await w.desk.send("a1")).toBe("queued");
    w.setStatus("a1", "exited");
    expect(agent.terminal.typed).toEqual([]);

    w.agents.delete("a1");
    w.changes.fire({ type: "removed", id: "a1" });
    expect(w.closedNotices).toEqual(["Agent #1: 1"]);
    expect(w.desk.book.review("a1")).toMatchObject({ closed: true, threads: [{ notes: [{ body: "Use a constant.", sentAt: null }], queued: false }] });
    expect(await w.desk.send("a1")).toBe("closed");
    expect(w.desk.comment("a1", app, APP, 0, 0, "more")).toBeUndefined();
  });

  it("threads are saved on every change and read back after a reload, each still its agent's", async () => {
    const w = world();
    w.add("a1", "Agent #1", "active");
    w.add("a2", "Agent #2", "active");
    const app = w.write("App.tsx", APP);
    w.desk.comment("a1", app, APP, 2, 2, "one");
    w.desk.comment("a2", app, APP, 3, 3, "two");
    await w.desk.send("a1");
    await w.desk.whenSaved();
    const torn = [{ agentId: 7 }, { agentId: "a3", agentName: "x", closed: false, threads: [{ id: "t" }] }];
    const { reviews, dropped } = readSavedReviews(JSON.parse(JSON.stringify([...w.saves.at(-1)!, ...torn])));
    expect(dropped).toBe(2);
    const again = world(reviews);
    const a1 = again.add("a1", "Agent #1", "active");
    const a2 = again.add("a2", "Agent #2", "waiting");
    expect(again.desk.reviewComments("a1")).toMatchObject({ queued: 1 });
    expect(again.desk.reviewComments("a2")).toMatchObject({ drafts: 1 });
    again.setStatus("a1", "waiting");
    await again.until(() => again.desk.reviewComments("a1")?.awaiting === 1, "a1's queued send delivered after the reload");
    expect(a1.terminal.typed[0]).toContain("one");
    expect(a1.terminal.typed[0]).not.toContain("two");
    expect(a2.terminal.typed).toEqual([]);

    // Sent, then the window reloads before the answer: the restored card's reading of that turn answers it.
    await again.desk.whenSaved();
    const third = world(again.saves.at(-1));
    third.add("a1", "Agent #1", "waiting");
    expect(third.desk.reviewComments("a1")).toMatchObject({ awaiting: 1 });
    third.events("a1", [{ kind: "prompt", text: "Review comments on your changes (1): …", source: "user", at: Date.now() }, { kind: "turnEnd" }]);
    await third.until(() => third.answered.length === 1, "the answer after the reload");
    expect(third.desk.reviewComments("a1")).toMatchObject({ awaiting: 0, unaddressed: 1 });
  });

  it("a card still reconnecting after a reload is not idle: the send is queued, nothing typed", async () => {
    const w = world();
    const agent = w.add("a1", "Agent #1", "waiting");
    agent.view = { ...agent.view, reconnecting: true };
    const app = w.write("App.tsx", APP);
    w.desk.comment("a1", app, APP, 2, 2, "one");
    expect(await w.desk.send("a1")).toBe("queued");
    expect(agent.terminal.typed).toEqual([]);
    w.agents.delete("a1");
    w.desk.comment("a1", app, APP, 3, 3, "two");
    expect(await w.desk.send("a1")).toBe("closed");
  });

  it("a file that cannot be read at the answer leaves its thread waiting (not addressed by default), with a log line", async () => {
    const w = world();
    w.add("a1", "Agent #1", "waiting");
    const app = w.write("App.tsx", APP);
    w.desk.comment("a1", app, APP, 2, 2, "one");
    await w.desk.send("a1");
    // Root reads any file whatever its mode: the refusal comes from the reader instead.
    w.unreadable.add(app);
    w.events("a1", [{ kind: "prompt", text: "Review comments on your changes (1): …", source: "user", at: Date.now() }, { kind: "turnEnd" }]);
    await w.until(() => w.answered.length === 1, "the answer looked at");
    expect(w.desk.reviewComments("a1")).toMatchObject({ awaiting: 1, addressed: 0, unaddressed: 0 });
    expect(w.log.lines.some((l) => l.includes(`${app} could not be read: EACCES`))).toBe(true);
  });

  it("each thread's header says whose it is and where it stands, a closed agent's too", async () => {
    const w = world();
    w.add("a1", "Agent #1", "active");
    const app = w.write("App.tsx", APP);
    const draft = w.desk.comment("a1", app, APP, 2, 2, "one")!;
    const label = () => threadLabel(w.desk.book.review("a1")!, w.desk.book.thread("a1", draft.id)!);
    expect(label()).toBe("Agent #1 · draft: not sent yet");
    await w.desk.send("a1");
    expect(label()).toBe("Agent #1 · will send when idle");
    w.agents.delete("a1");
    w.changes.fire({ type: "removed", id: "a1" });
    expect(label()).toBe("Agent #1 (closed) · draft, kept: the agent was closed");
  });

  it("a typing failure keeps the comments as drafts, with a log line", async () => {
    const w = world();
    const agent = w.add("a1", "Agent #1", "waiting");
    agent.terminal.type = async () => {
      throw new Error("terminal gone");
    };
    const app = w.write("App.tsx", APP);
    w.desk.comment("a1", app, APP, 2, 2, "one");
    expect(await w.desk.send("a1")).toBe("failed");
    expect(w.desk.reviewComments("a1")).toMatchObject({ drafts: 1, awaiting: 0 });
    expect(w.log.lines.some((l) => l.includes("review comments not sent: terminal gone"))).toBe(true);
  });

  it("a queued send is never glued onto text left in claude's input box: it waits for the user's 'Send now', asked once while the agent stays idle", async () => {
    const answers: ((yes: boolean) => void)[] = [];
    const asked: string[] = [];
    const w = world(undefined, (_id, name, comments) => (asked.push(`${name}: ${comments}`), new Promise<boolean>((resolve) => answers.push(resolve))));
    const agent = w.add("a1", "Agent #1", "active");
    const app = w.write("App.tsx", APP);
    w.desk.comment("a1", app, APP, 2, 2, "Use a constant.");
    expect(await w.desk.send("a1")).toBe("queued");
    // Idle again: the user may have half-typed words in its input box; nothing is typed unasked.
    w.setStatus("a1", "waiting");
    w.setStatus("a1", "waiting");
    expect(asked).toEqual(["Agent #1: 1"]);
    answers[0]!(false);
    await new Promise((r) => setTimeout(r, 20));
    expect(agent.terminal.typed).toEqual([]);
    expect(w.desk.reviewComments("a1")).toMatchObject({ queued: 1 });
    // Not now: not asked again while it stays idle; its next idle asks again, and yes sends it once.
    w.setStatus("a1", "waiting");
    expect(asked).toHaveLength(1);
    w.setStatus("a1", "active");
    w.setStatus("a1", "waiting");
    expect(asked).toHaveLength(2);
    answers[1]!(true);
    await w.until(() => w.desk.reviewComments("a1")?.awaiting === 1, "sent on the user's word");
    expect(agent.terminal.typed).toHaveLength(1);
  });
});
