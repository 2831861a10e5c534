import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { deriveToolCalls } from "../../src/core/agent/toolCalls";
import type { TranscriptEvent } from "../../src/core/transcript/events";
import { ProjectFolderWatcher } from "../../src/core/engine/projectFolderWatcher";
import { SessionFollower } from "../../src/core/engine/sessionFollower";
import { ManualClock } from "../../src/core/util/clock";
import { noWatch } from "../../src/core/util/fileWatch";
import { loadScenario, sessionFiles } from "../support/recorded";
import { useTempDirs } from "../support/tempDir";
import { waitForChange } from "../support/waitFor";

const tempDir = useTempDirs();
const followers: SessionFollower[] = [];
afterEach(async () => {
  for (const f of followers.splice(0)) await f.stop();
});

function linesOf(scenario: string, index = 0): string[] {
  return readFileSync(sessionFiles(loadScenario(scenario))[index] as string, "utf8")
    .split("\n")
    .filter(Boolean);
}

function follow(path: string, opts: ConstructorParameters<typeof SessionFollower>[1] = {}): SessionFollower {
  const follower = new SessionFollower(path, opts);
  followers.push(follower);
  return follower;
}

describe("SessionFollower", () => {
  it("follows a transcript as it is written, through real file events", async () => {
    const file = join(tempDir(), "s.jsonl");
    const follower = follow(file, { clock: new ManualClock() });
    await follower.start();
    expect(follower.state.status).toBe("starting");

    const lines = linesOf("escape-slow-tool");
    const toolUse = lines.findIndex((l) => l.includes('"tool_use"') && l.startsWith('{"parentUuid"'));
    appendFileSync(file, `${lines.slice(0, toolUse + 1).join("\n")}\n`);
    // No pump() call and no poll tick (the clock is manual): only the file event can deliver this.
    const running = await waitForChange(
      (cb) => follower.onDidChange(cb).dispose,
      () => follower.state.activeTools.size === 1 && follower.state,
      5000,
      "the Bash tool to show as running",
    );
    expect(running.status).toBe("active");

    appendFileSync(file, `${lines.slice(toolUse + 1).join("\n")}\n`);
    const ended = await waitForChange(
      (cb) => follower.onDidChange(cb).dispose,
      () => follower.state.status === "waiting" && follower.state,
    );
    expect(ended).toMatchObject({ lastTurn: "interrupted" });
    expect(ended.activeTools.list()).toEqual([]);
  });

  it("still sees appends when file events are lost, through its periodic size check", async () => {
    const file = join(tempDir(), "s.jsonl");
    const clock = new ManualClock();
    const follower = follow(file, { clock, watch: noWatch, pollIntervalMs: 1000 });
    await follower.start();
    appendFileSync(file, `${linesOf("text-only").join("\n")}\n`);
    expect(follower.state.status).toBe("starting");
    clock.advance(1000);
    await waitForChange(
      (cb) => follower.onDidChange(cb).dispose,
      () => follower.state.status === "waiting",
    );
    expect(follower.state.lastTurn).toBe("completed");
  });

  it("holds a half-written line until the rest of it arrives", async () => {
    const file = join(tempDir(), "s.jsonl");
    const follower = follow(file, { clock: new ManualClock(), watch: noWatch });
    await follower.start();
    const lines = linesOf("text-only");
    const body = `${lines.join("\n")}\n`;
    const cut = body.lastIndexOf('"turn_duration"') + 5;
    writeFileSync(file, body.slice(0, cut));
    await follower.pump();
    expect(follower.state.status).toBe("active");
    appendFileSync(file, body.slice(cut));
    await follower.pump();
    expect(follower.state).toMatchObject({ status: "waiting", lastTurn: "completed" });
    expect(follower.stats.malformed).toBe(0);
  });

  it("ends a print-mode turn after the idle delay on its clock, not the wall clock", async () => {
    const file = join(tempDir(), "s.jsonl");
    const clock = new ManualClock();
    const follower = follow(file, { clock, watch: noWatch, idleDelayMs: 3000, pollIntervalMs: 60_000 });
    writeFileSync(file, `${linesOf("print-text").join("\n")}\n`);
    await follower.start();
    expect(follower.state).toMatchObject({ status: "active", awaitingIdle: true });
    clock.advance(2999);
    expect(follower.state.status).toBe("active");
    clock.advance(1);
    expect(follower.state).toMatchObject({ status: "waiting", lastTurn: "completed" });
  });

  it("skips a malformed line in a live transcript and keeps following", async () => {
    const file = join(tempDir(), "s.jsonl");
    const follower = follow(file, { clock: new ManualClock(), watch: noWatch, restore: false });
    await follower.start();
    const lines = linesOf("several-tools");
    writeFileSync(file, `${lines.slice(0, 10).join("\n")}\n{"broken":\n[1,2]\n${lines.slice(10).join("\n")}\n`);
    await follower.pump();
    expect(follower.state).toMatchObject({ status: "waiting", lastTurn: "completed" });
    expect(follower.stats).toMatchObject({ malformed: 1, notObject: 1 });
  });

  it("starts over when the transcript is truncated", async () => {
    const file = join(tempDir(), "s.jsonl");
    const follower = follow(file, { clock: new ManualClock(), watch: noWatch });
    writeFileSync(file, `${linesOf("escape-slow-tool").join("\n")}\n`);
    await follower.start();
    expect(follower.state.lastTurn).toBe("interrupted");
    writeFileSync(file, `${linesOf("text-only").join("\n")}\n`);
    await follower.pump();
    expect(follower.state).toMatchObject({ status: "waiting", lastTurn: "completed" });
    expect(follower.state.activeTools.list()).toEqual([]);
  });

  it("follows a sub-agent file that appears in the session's subagents folder", async () => {
    const scenario = loadScenario("subagent-foreground");
    const dir = tempDir();
    const [mainSource] = sessionFiles(scenario);
    const sessionId = scenario.sessions[0] as string;
    const file = join(dir, `${sessionId}.jsonl`);
    const follower = follow(file, { clock: new ManualClock(), watch: noWatch });
    await follower.start();
    const main = readFileSync(mainSource as string, "utf8")
      .split("\n")
      .filter(Boolean);
    const agentUse = main.findIndex((l) => l.startsWith('{"parentUuid"') && l.includes('"name":"Agent"'));
    writeFileSync(file, `${main.slice(0, agentUse + 1).join("\n")}\n`);
    await follower.pump();
    const agentId = follower.state.activeTools.list()[0]?.id;
    expect(follower.state.activeTools.list().map((t) => t.name)).toEqual(["Agent"]);

    const subFile = scenario.files.find((f) => f.endsWith(".jsonl") && f.includes("/subagents/")) as string;
    mkdirSync(join(dir, sessionId, "subagents"), { recursive: true });
    const meta = subFile.replace(/\.jsonl$/, ".meta.json");
    writeFileSync(join(dir, meta), readFileSync(join(scenario.dir, meta)));
    const subLines = readFileSync(join(scenario.dir, subFile), "utf8").split("\n").filter(Boolean);
    const subUse = subLines.findIndex((l) => l.includes('"tool_use"') && l.startsWith('{"parentUuid"'));
    writeFileSync(join(dir, subFile), `${subLines.slice(0, subUse + 1).join("\n")}\n`);
    await follower.pump();
    const nested = follower.state.activeTools.list().find((t) => t.parent === agentId);
    expect(nested?.name).toBe("Bash");
  });
});

describe("SessionFollower and sub-agents that start before their parent's record lands", () => {
  it("keeps reading a sub-agent file that appeared (meta and all) before its Agent record was on disk", async () => {
    // The CLI starts a sub-agent as soon as the Agent block is complete, but writes the parent's
    // records only when the whole reply has ended: the sub-agent's file can come first.
    const scenario = loadScenario("subagent-foreground");
    const dir = tempDir();
    const sessionId = scenario.sessions[0] as string;
    const file = join(dir, `${sessionId}.jsonl`);
    const follower = follow(file, { clock: new ManualClock(), watch: noWatch, restore: false });
    const events: TranscriptEvent[] = [];
    follower.onDidChange(({ events: batch }) => events.push(...batch));
    await follower.start();
    const main = readFileSync(join(scenario.dir, `${sessionId}.jsonl`), "utf8")
      .split("\n")
      .filter(Boolean);
    const agentUse = main.findIndex((l) => l.startsWith('{"parentUuid"') && l.includes('"name":"Agent"'));
    writeFileSync(file, `${main.slice(0, agentUse).join("\n")}\n`);
    await follower.pump();

    const subFile = scenario.files.find((f) => f.endsWith(".jsonl") && f.includes("/subagents/")) as string;
    const meta = subFile.replace(/\.jsonl$/, ".meta.json");
    mkdirSync(join(dir, sessionId, "subagents"), { recursive: true });
    writeFileSync(join(dir, meta), readFileSync(join(scenario.dir, meta)));
    const sub = readFileSync(join(scenario.dir, subFile), "utf8").split("\n").filter(Boolean);
    writeFileSync(join(dir, subFile), `${sub[0]}\n`);
    await follower.pump();

    appendFileSync(file, `${main.slice(agentUse).join("\n")}\n`);
    appendFileSync(join(dir, subFile), `${sub.slice(1).join("\n")}\n`);
    await follower.pump();
    const calls = deriveToolCalls(events);
    const agent = calls.find((c) => c.name === "Agent");
    expect(calls.filter((c) => c.parent === agent?.id).map((c) => `${c.name} ${c.outcome}`)).toEqual(["Bash done"]);
    expect(follower.state).toMatchObject({ status: "waiting", lastTurn: "completed" });
  });
});

describe("SessionFollower when its file is rewritten or written in pieces", () => {
  /** A follower whose reading runs on `clock` only: no watcher, the poll far away. */
  function quietFollower(file: string, clock: ManualClock, opts: ConstructorParameters<typeof SessionFollower>[1] = {}) {
    return follow(file, { clock: new ManualClock(), pollClock: clock, watch: noWatch, pollIntervalMs: 60_000, restore: false, ...opts });
  }

  it("reads the rest of a half-written line by its next look, though no file event says so", async () => {
    // The watcher drops change events for 50 ms after each one: the second write of a line often
    // comes unannounced. A read that only grew the half line still earns the follow-up looks.
    const file = join(tempDir(), "s.jsonl");
    const clock = new ManualClock();
    const lines = linesOf("several-tools");
    writeFileSync(file, `${lines.slice(0, 20).join("\n")}\n`);
    const follower = quietFollower(file, clock);
    await follower.start();
    clock.advance(1000); // past the looks that follow the first read
    const toolUse = `${lines[20] as string}\n`;
    appendFileSync(file, toolUse.slice(0, -10));
    await follower.pump(); // as the file event of the first write would
    expect(follower.state.activeTools.size).toBe(0);
    appendFileSync(file, toolUse.slice(-10));
    clock.advance(15);
    await waitForChange(
      (cb) => follower.onDidChange(cb).dispose,
      () => follower.state.activeTools.size === 1,
      2000,
      "the tool to show",
    );
    expect(follower.state.activeTools.list().map((t) => t.name)).toEqual(["Read"]);
  });

  it("stops its follow-up looks once the file has been still for a while (no busy loop)", async () => {
    const file = join(tempDir(), "s.jsonl");
    const clock = new ManualClock();
    const lines = linesOf("several-tools");
    writeFileSync(file, `${lines.slice(0, 20).join("\n")}\n`);
    const follower = quietFollower(file, clock);
    await follower.start();
    for (let i = 0; i < 10; i++) {
      clock.advance(15);
      await follower.pump();
    }
    // Still for a while: no follow-up look is set any more, only the (60 s) poll.
    expect(clock.nextTimerIn()).toBeGreaterThan(1000);
    appendFileSync(file, `${lines[20] as string}\n`);
    clock.advance(15); // fires nothing (just shown), so no read is under way
    expect(follower.state.activeTools.size).toBe(0); // only a file event or the poll would read it now
    await follower.pump();
    expect(follower.state.activeTools.size).toBe(1);
  });

  it("says so, then reads a rewritten file's sub-agents again from their start", async () => {
    const scenario = loadScenario("subagent-foreground");
    const dir = tempDir();
    const sessionId = scenario.sessions[0] as string;
    const file = join(dir, `${sessionId}.jsonl`);
    const main = readFileSync(join(scenario.dir, `${sessionId}.jsonl`), "utf8")
      .split("\n")
      .filter(Boolean);
    const agentUse = main.findIndex((l) => l.startsWith('{"parentUuid"') && l.includes('"name":"Agent"'));
    writeFileSync(file, `${main.slice(0, agentUse + 1).join("\n")}\n`);
    const subFile = scenario.files.find((f) => f.endsWith(".jsonl") && f.includes("/subagents/")) as string;
    mkdirSync(join(dir, sessionId, "subagents"), { recursive: true });
    writeFileSync(join(dir, subFile.replace(/\.jsonl$/, ".meta.json")), readFileSync(join(scenario.dir, subFile.replace(/\.jsonl$/, ".meta.json"))));
    const sub = readFileSync(join(scenario.dir, subFile), "utf8").split("\n").filter(Boolean);
    const subUse = sub.findIndex((l) => l.includes('"tool_use"') && l.startsWith('{"parentUuid"'));
    writeFileSync(join(dir, subFile), `${sub.slice(0, subUse + 1).join("\n")}\n`);
    let resets = 0;
    const follower = follow(file, { clock: new ManualClock(), watch: noWatch, restore: false, onReset: () => resets++ });
    await follower.start();
    const nestedBash = () => follower.state.activeTools.list().filter((t) => t.name === "Bash" && t.parent !== null);
    expect(nestedBash()).toHaveLength(1);

    // The same session written again from scratch, one bookkeeping line in front: a rewrite, and
    // the running sub-agent's tool must come back (its file is unchanged, so only reading it again shows it).
    writeFileSync(file, `${main[1] as string}\n${main.slice(0, agentUse + 1).join("\n")}\n`);
    await follower.pump();
    expect(resets).toBe(1);
    expect(nestedBash()).toHaveLength(1);
    expect(follower.state.status).toBe("active");
  });
});

describe("ProjectFolderWatcher", () => {
  it("announces a transcript created after it started, not the ones already there", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "old.jsonl"), "");
    const seen: string[] = [];
    const watcher = new ProjectFolderWatcher(dir, { clock: new ManualClock() });
    watcher.onDidAddTranscript((p) => seen.push(p));
    await watcher.start();
    writeFileSync(join(dir, "new.jsonl"), "");
    writeFileSync(join(dir, "notes.txt"), "");
    await waitForChange(
      (cb) => {
        const t = setInterval(cb, 20);
        return () => clearInterval(t);
      },
      () => seen.length > 0,
    );
    await watcher.stop();
    expect(seen).toEqual([join(dir, "new.jsonl")]);
  });

  it("watches a folder of 200 transcripts with one handle, not one per transcript", async () => {
    const dir = tempDir();
    for (let i = 0; i < 200; i++) writeFileSync(join(dir, `s${i}.jsonl`), "");
    // Counted a turn of the loop later: a closed handle (an earlier test's) goes on the next turn.
    const watches = async () => (await new Promise((r) => setImmediate(r)), process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length);
    const before = await watches();
    const watcher = new ProjectFolderWatcher(dir, { clock: new ManualClock() });
    const seen: string[] = [];
    watcher.onDidAddTranscript((p) => seen.push(p));
    await watcher.start();
    // One (give or take a handle an earlier test is still closing): chokidar made 201.
    expect(Math.abs((await watches()) - before - 1)).toBeLessThanOrEqual(1);
    writeFileSync(join(dir, "new.jsonl"), "");
    await waitForChange(
      (cb) => {
        const t = setInterval(cb, 20);
        return () => clearInterval(t);
      },
      () => seen.length > 0,
    );
    expect(seen).toEqual([join(dir, "new.jsonl")]);
    await watcher.stop();
    expect(await watches()).toBeLessThanOrEqual(before);
  });

  it("finds new transcripts through the folder's mtime when events are lost", async () => {
    const dir = tempDir();
    const clock = new ManualClock();
    const seen: string[] = [];
    const watcher = new ProjectFolderWatcher(dir, { clock, watch: noWatch, pollIntervalMs: 2000 });
    watcher.onDidAddTranscript((p) => seen.push(p));
    await watcher.start();
    writeFileSync(join(dir, "a.jsonl"), "");
    await watcher.check();
    expect(seen).toEqual([join(dir, "a.jsonl")]);
    await watcher.check();
    expect(seen).toHaveLength(1);
    await watcher.stop();
  });
});
