/**
 * Attack class: an allow-listed command whose argument reads as a relative path inside the
 * workspace but leads out of it through a symlink (`cat link`, `link -> /proc/self/environ` or
 * `-> ~/.ssh/id_rsa`). The same path through read_file asks; execute_command must too. Each
 * attack is shown to leak with the plain shell (`sh -c` in the workspace, as the runner runs it),
 * then through Arcadia: the user is asked (answered Deny here) and the secret never reaches the
 * agent. Controls: relative paths that stay inside, links included, run unasked.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type PolicyHarness, startPolicyHarness } from "./commandPolicyHarness";

let h: PolicyHarness;
afterEach(async () => h?.close());

const SECRET = "SECRET-4b1d-outside-the-workspace";

function setUp(): void {
  writeFileSync(join(h.outside, "id_rsa"), `${SECRET}\n`);
  mkdirSync(join(h.workspace, "src"));
  writeFileSync(join(h.workspace, "src", "a.ts"), "export const a = 1;\n");
}

/** What the plain shell prints for `command` in the workspace: the attack without Arcadia. */
function plainShell(command: string, env: NodeJS.ProcessEnv = process.env): string {
  return spawnSync("/bin/sh", ["-c", command], { cwd: h.workspace, env, encoding: "utf8" }).stdout;
}

async function throughArcadia(command: string) {
  const { body, text } = await h.call("execute_command", { command });
  return { body, text, reason: h.asked.at(-1)?.reason ?? "" };
}

describe.skipIf(process.platform === "win32")("arguments that lead out of the workspace through a symlink ask", () => {
  it("cat link, link -> a file outside", async () => {
    h = await startPolicyHarness();
    setUp();
    symlinkSync(join(h.outside, "id_rsa"), join(h.workspace, "notes.txt"));
    expect(plainShell("cat notes.txt")).toContain(SECRET);

    const { body, text, reason } = await throughArcadia("cat notes.txt");
    expect(body.status).toBe("denied");
    expect(text).not.toContain(SECRET);
    expect(reason).toBe(`its argument \`notes.txt\` leads to ${join(h.outside, "id_rsa")}, outside the workspace`);
    expect(h.asked[0]?.subject).toBe("cat notes.txt");
    expect(h.runner.started).toEqual([]);
  });

  it.skipIf(process.platform !== "linux")("cat env, env -> /proc/self/environ (the command's own environment)", async () => {
    h = await startPolicyHarness();
    setUp();
    symlinkSync("/proc/self/environ", join(h.workspace, "env"));
    expect(plainShell("cat env", { ...process.env, ARCADIA_TEST_TOKEN: SECRET })).toContain(SECRET);

    const { body, reason } = await throughArcadia("cat env");
    expect(body.status).toBe("denied");
    expect(reason).toMatch(/leads to \/proc\/.*environ, outside the workspace/);
    expect(h.runner.started).toEqual([]);
  });

  it("a folder link on the way: cat keys/id_rsa, keys -> a folder outside", async () => {
    h = await startPolicyHarness();
    setUp();
    symlinkSync(h.outside, join(h.workspace, "keys"));
    expect(plainShell("cat keys/id_rsa")).toContain(SECRET);
    expect((await throughArcadia("cat keys/id_rsa")).body.status).toBe("denied");
    expect((await throughArcadia("ls keys")).body.status).toBe("denied");
    expect(h.runner.started).toEqual([]);
  });

  it("quoted or escaped, the name is the same: cat \"notes.txt\", cat note\\s.txt", async () => {
    h = await startPolicyHarness();
    setUp();
    symlinkSync(join(h.outside, "id_rsa"), join(h.workspace, "notes.txt"));
    expect(plainShell("cat note\\s.txt")).toContain(SECRET);
    for (const command of ['cat "notes.txt"', "cat 'notes'.txt", "cat note\\s.txt", "cat src/a.ts notes.txt"]) {
      expect((await throughArcadia(command)).body.status, command).toBe("denied");
    }
    expect(h.runner.started).toEqual([]);
  });

  it("an unquoted glob that expands to such a link: cat *.txt", async () => {
    h = await startPolicyHarness();
    setUp();
    writeFileSync(join(h.workspace, "readme.txt"), "hello\n");
    symlinkSync(join(h.outside, "id_rsa"), join(h.workspace, "z.txt"));
    expect(plainShell("cat *.txt")).toContain(SECRET);
    const { body, reason } = await throughArcadia("cat *.txt");
    expect(body.status).toBe("denied");
    expect(reason).toMatch(/`\*\.txt` leads to .*id_rsa/);
  });

  it("an option's value: git diff --relative=link", async () => {
    h = await startPolicyHarness();
    setUp();
    symlinkSync(join(h.outside, "id_rsa"), join(h.workspace, "notes.txt"));
    const { body, reason } = await throughArcadia("git diff --no-index --stat=80 src/a.ts --relative=notes.txt");
    expect(body.status).toBe("denied");
    expect(reason).toMatch(/--relative=notes.txt/);
  });

  it("a dangling link is followed to its target: cat later.txt, later.txt -> outside/missing", async () => {
    h = await startPolicyHarness();
    setUp();
    symlinkSync(join(h.outside, "not-yet"), join(h.workspace, "later.txt"));
    const { body, reason } = await throughArcadia("cat later.txt");
    expect(body.status).toBe("denied");
    expect(reason).toContain(join(h.outside, "not-yet"));
  });

  it("checked when the command runs: a link that appears after an earlier run asks", async () => {
    h = await startPolicyHarness();
    setUp();
    writeFileSync(join(h.workspace, "notes.txt"), "mine\n");
    expect((await throughArcadia("cat notes.txt")).body).toMatchObject({ status: "completed", output: "mine\n" });
    spawnSync("rm", [join(h.workspace, "notes.txt")]);
    symlinkSync(join(h.outside, "id_rsa"), join(h.workspace, "notes.txt"));
    const { body, text } = await throughArcadia("cat notes.txt");
    expect(body.status).toBe("denied");
    expect(text).not.toContain(SECRET);
  });

  it("an unquoted ( or ): shell syntax (a zsh glob qualifier runs code), asked", async () => {
    h = await startPolicyHarness();
    setUp();
    const { body, reason } = await throughArcadia("echo *(e:'touch pwned':)");
    expect(body.status).toBe("denied");
    expect(reason).toMatch(/unquoted \( or \)/);
  });
});

describe.skipIf(process.platform === "win32")("controls: paths that stay inside run unasked", () => {
  it("cat src/a.ts, a link to a file inside, a glob of files inside, words that name nothing", async () => {
    h = await startPolicyHarness();
    setUp();
    symlinkSync(join(h.workspace, "src", "a.ts"), join(h.workspace, "alias.ts"));
    symlinkSync("src", join(h.workspace, "source"));
    expect((await throughArcadia("cat src/a.ts")).body).toMatchObject({ status: "completed", output: "export const a = 1;\n" });
    expect((await throughArcadia("cat alias.ts")).body).toMatchObject({ status: "completed", output: "export const a = 1;\n" });
    expect((await throughArcadia("cat source/*.ts")).body).toMatchObject({ status: "completed", output: "export const a = 1;\n" });
    expect((await throughArcadia("echo hello world")).body).toMatchObject({ status: "completed", output: "hello world\n" });
    expect((await throughArcadia('echo "a (quoted) paren"')).body).toMatchObject({ status: "completed", output: "a (quoted) paren\n" });
    expect((await throughArcadia("ls -la src")).body.status).toBe("completed");
    expect(h.asked).toEqual([]);
  });
});
