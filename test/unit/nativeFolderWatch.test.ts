/**
 * The folder watch behind the session followers and the status files (util/nativeFolderWatch.ts),
 * on the real file system: every write reported (no throttle: no trailing look needed), folders the
 * owner accepts watched as they appear (a session's folder, then its subagents/), one made again
 * watched anew, a follower joining a shared watch whose folders already exist heard in them too,
 * and the root reporting itself when it is deleted (its owner re-arms).
 */
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FileWatch } from "../../src/core/util/fileWatch";
import { nativeFolderWatch } from "../../src/core/util/nativeFolderWatch";
import { sharedPerFolder } from "../../src/core/util/sharedWatch";
import { useTempDirs } from "../support/tempDir";
import { pollUntil } from "../support/waitFor";

const tempDir = useTempDirs();
const open: FileWatch[] = [];
afterEach(async () => {
  for (const w of open.splice(0)) await w.close();
});

/** A watch of `root` down to `depth`, admitting what `accept` does, with what it reported. */
async function watching(root: string, accept: (p: string) => boolean = () => true, depth = 3) {
  const heard: string[] = [];
  const watch = nativeFolderWatch({ depth })(root, accept, (p) => heard.push(p));
  open.push(watch);
  await watch.ready;
  return { heard, watch };
}

const count = (heard: string[], path: string) => heard.filter((p) => p === path).length;

describe("nativeFolderWatch", () => {
  it("reports every write to a file of the folder, each one (no throttle to cover with extra looks)", async () => {
    const root = tempDir();
    const file = join(root, "s.jsonl");
    writeFileSync(file, "");
    const { heard, watch } = await watching(root);
    expect(watch.throttleMs).toBe(0);
    appendFileSync(file, "one\n");
    await pollUntil(() => count(heard, file) >= 1, "the first write", 5000, 5);
    appendFileSync(file, "two\n");
    await pollUntil(() => count(heard, file) >= 2, "the second write, right after the first", 5000, 5);
  });

  it("watches a session's folder and its subagents/ as they appear, and hears writes in them", async () => {
    const root = tempDir();
    const { heard } = await watching(root);
    const sub = join(root, "session", "subagents");
    mkdirSync(join(root, "session"));
    await pollUntil(() => heard.includes(join(root, "session")), "the session folder", 5000, 5);
    mkdirSync(sub);
    await pollUntil(() => heard.includes(sub), "its subagents folder", 5000, 5);
    const agentFile = join(sub, "agent-a.jsonl");
    writeFileSync(agentFile, "first\n");
    await pollUntil(() => heard.includes(agentFile), "the sub-agent's file", 5000, 5);
    const before = count(heard, agentFile);
    appendFileSync(agentFile, "more\n");
    await pollUntil(() => count(heard, agentFile) > before, "a write to the sub-agent's file", 5000, 5);
  });

  it("reports nothing of folders its owner does not accept, nor below the depth asked", async () => {
    const root = tempDir();
    const { heard } = await watching(root, (p) => !p.includes("ignored"), 0);
    mkdirSync(join(root, "ignored"));
    writeFileSync(join(root, "ignored", "x.jsonl"), "x\n");
    mkdirSync(join(root, "deep"));
    writeFileSync(join(root, "deep", "y.jsonl"), "y\n");
    writeFileSync(join(root, "last.jsonl"), "z\n");
    await pollUntil(() => heard.includes(join(root, "last.jsonl")), "the last write", 5000, 5);
    expect(heard.filter((p) => p.includes("ignored") || p.startsWith(join(root, "deep") + "/"))).toEqual([]);
  });

  it("watches a sub-folder deleted and made again anew: writes in the new one are heard", async () => {
    const root = tempDir();
    const session = join(root, "session");
    mkdirSync(session);
    const { heard } = await watching(root);
    rmSync(session, { recursive: true });
    mkdirSync(session);
    await pollUntil(() => count(heard, session) >= 2, "the folder gone and back", 5000, 5);
    const file = join(session, "agent-b.jsonl");
    // The folder's new watch is set up after a stat: write until a write is heard.
    await pollUntil(() => (appendFileSync(file, "x\n"), heard.includes(file)), "a write in the folder made again", 5000, 20);
  });

  it("reports the root itself when it is deleted (its owner drops the dead watch and arms another)", async () => {
    const root = join(tempDir(), "project");
    mkdirSync(root);
    const { heard } = await watching(root);
    rmSync(root, { recursive: true });
    await pollUntil(() => heard.includes(root), "the root reporting itself", 5000, 5);
  });

  it("shared: a follower joining after its session's folders exist hears writes in them", async () => {
    const root = tempDir();
    const sub = join(root, "late", "subagents");
    mkdirSync(sub, { recursive: true });
    const shared = sharedPerFolder(nativeFolderWatch({ depth: 3 }));
    const first = shared(
      root,
      (p) => p === join(root, "early.jsonl"),
      () => undefined,
    );
    open.push(first);
    await first.ready;
    // Nobody accepted late/ when the watch was made: it is watched once its follower joins.
    const heard: string[] = [];
    const late = shared(
      root,
      (p) => p === join(root, "late") || p === sub || p.startsWith(sub + "/"),
      (p) => heard.push(p),
    );
    open.push(late);
    await late.ready;
    const file = join(sub, "agent-c.jsonl");
    writeFileSync(file, "x\n");
    await pollUntil(() => heard.includes(file), "a write in the late follower's subagents folder", 5000, 5);
  });
});
