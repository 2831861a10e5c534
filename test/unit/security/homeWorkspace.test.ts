/**
 * Issue 31, item 7: a workspace opened at the home folder (or above it) runs nothing unasked.
 * There every secret is inside the workspace: an allow-listed `cat .pgpass` (paths checked: it
 * stays in the workspace) or `npm test` reads `.pgpass`, `.vault-token`, `.m2/settings.xml`.
 * Weakened (the home folder taken to be elsewhere, as before the check) the read runs unasked and
 * prints the secret; with the workspace at home, it and every other command ask, saying why; the
 * control — the same command in an ordinary workspace — still runs unasked.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type PolicyHarness, startPolicyHarness } from "./commandPolicyHarness";

let h: PolicyHarness;
afterEach(async () => h?.close());

const SECRET = "db.example:5432:*:app:hunter2";

async function homeWorkspace(home: (h: PolicyHarness) => string): Promise<void> {
  h = await startPolicyHarness({ sandbox: "none" });
  writeFileSync(join(h.workspace, ".pgpass"), SECRET);
  h.ports.home = home(h);
}

describe("a workspace at the home folder", () => {
  it("weakened (home taken to be elsewhere): `cat .pgpass` runs unasked and prints the secret — the test can fail", async () => {
    await homeWorkspace((h) => join(h.root, "elsewhere"));
    const { body } = await h.call("execute_command", { command: "cat .pgpass" });
    expect(h.asked).toEqual([]);
    expect(body.output).toContain(SECRET);
  });

  it.each(["cat .pgpass", "ls", "npm test"])("`%s` asks, with the reason on the card", async (command) => {
    await homeWorkspace((h) => h.workspace);
    const { body } = await h.call("execute_command", { command });
    expect(h.asked.map((a) => a.reason)).toEqual([
      `the workspace folder ${h.workspace} is your home folder: your keys, tokens and other projects are in it, so every command asks`,
    ]);
    expect(body.status).toBe("denied");
  });

  it("a workspace above the home folder asks too", async () => {
    await homeWorkspace((h) => join(h.workspace, "me"));
    mkdirSync(join(h.workspace, "me"));
    await h.call("execute_command", { command: "ls" });
    expect(h.asked[0]?.reason).toMatch(/holds your home folder/);
  });

  it("control: in an ordinary workspace the same read runs unasked", async () => {
    h = await startPolicyHarness({ sandbox: "none" });
    writeFileSync(join(h.workspace, "notes.txt"), "harmless");
    const { body } = await h.call("execute_command", { command: "cat notes.txt" });
    expect(h.asked).toEqual([]);
    expect(body.output).toContain("harmless");
  });
});
