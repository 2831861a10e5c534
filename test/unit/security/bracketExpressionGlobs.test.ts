/**
 * Attack class: a glob whose bracket expression the check cannot read. POSIX bracket expressions
 * hold classes a plain reading says match nothing: `[[=e=]]` (every character equivalent to e),
 * `[[.n.]]` (the collating element n). bash expands `cat docs/[[=e=]]nv` to `cat docs/env`; with
 * `docs/env -> /proc/self/environ` shipped in the repository that printed the extension host's
 * environment to the agent, because the check's glob library matched nothing and so checked no
 * path. Arcadia now expands `*` and `?` itself and runs the names it checked with no shell in
 * between; a bracket expression asks. Each attack is first shown to work in bash, as the user's
 * shell would run it.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type PolicyHarness, startPolicyHarness } from "./commandPolicyHarness";

let h: PolicyHarness;
afterEach(async () => h?.close());

const SECRET = "SECRET-b7e2-bracket";
const hasBash = spawnSync("bash", ["--version"]).status === 0;

function bash(command: string, env: NodeJS.ProcessEnv = process.env): string {
  return spawnSync("bash", ["-c", command], { cwd: h.workspace, env, encoding: "utf8" }).stdout;
}

async function throughArcadia(command: string) {
  const { body, text } = await h.call("execute_command", { command });
  return { body, text, reason: h.asked.at(-1)?.reason ?? "" };
}

describe.skipIf(!hasBash || process.platform !== "linux")("bracket expressions in an allow-listed command ask", () => {
  it("cat docs/[[=e=]]nv, docs/env -> /proc/self/environ: the environment stays out of reach", async () => {
    h = await startPolicyHarness();
    mkdirSync(join(h.workspace, "docs"));
    symlinkSync("/proc/self/environ", join(h.workspace, "docs", "env"));
    expect(bash("cat docs/[[=e=]]nv", { ...process.env, ARCADIA_TEST_TOKEN: SECRET })).toContain(SECRET);

    const { body, text, reason } = await throughArcadia("cat docs/[[=e=]]nv");
    expect(body.status).toBe("denied");
    expect(text).not.toContain(SECRET);
    expect(reason).toMatch(/`docs\/\[\[=e=\]\]nv` holds a bracket expression/);
    expect(h.runner.started).toEqual([]);
  });

  it("cat [[=n=]]otes.txt and cat [[.n.]]otes.txt, notes.txt -> a file outside", async () => {
    h = await startPolicyHarness();
    writeFileSync(join(h.outside, "secret.txt"), `${SECRET}\n`);
    symlinkSync(join(h.outside, "secret.txt"), join(h.workspace, "notes.txt"));
    for (const command of ["cat [[=n=]]otes.txt", "cat [[.n.]]otes.txt", "cat [n]otes.txt", "cat note[[:alpha:]].txt"]) {
      expect(bash(command), command).toContain(SECRET);
      const { body, text } = await throughArcadia(command);
      expect(body.status, command).toBe("denied");
      expect(text, command).not.toContain(SECRET);
    }
    expect(h.runner.started).toEqual([]);
  });
});

describe.skipIf(process.platform === "win32")("controls: names and wildcards Arcadia expands itself run unasked", () => {
  it("cat notes.txt, cat *.txt, cat 'a[1].txt' (quoted: a name, not a pattern)", async () => {
    h = await startPolicyHarness();
    writeFileSync(join(h.workspace, "notes.txt"), "mine\n");
    writeFileSync(join(h.workspace, "todo.txt"), "later\n");
    writeFileSync(join(h.workspace, "a[1].txt"), "bracketed\n");
    expect((await throughArcadia("cat notes.txt")).body).toMatchObject({ status: "completed", output: "mine\n" });
    expect((await throughArcadia("cat *.txt")).body).toMatchObject({ status: "completed", output: "bracketed\nmine\nlater\n" });
    expect((await throughArcadia("cat 'a[1].txt'")).body).toMatchObject({ status: "completed", output: "bracketed\n" });
    expect(h.asked).toEqual([]);
    // What ran is the names that were checked, with no shell: the program and its arguments.
    expect(h.runner.started[1]?.argv?.slice(1)).toEqual(["a[1].txt", "notes.txt", "todo.txt"]);
  });
});
