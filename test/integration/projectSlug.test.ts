/**
 * The transcript folder Arcadia computes for a workspace must be the one the real CLI writes to,
 * for the names that broke other tools: underscores, dots, spaces, non-ASCII, emoji, a symlink,
 * and a path over 200 characters (truncated plus a hash).
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectDirFor } from "../../src/core/transcript/projectDir";
import { createRig, type Rig } from "../rig/claude-rig.js";
import { realCliAvailable } from "../support/realCli";

const available = realCliAvailable("project folders made by the real CLI");

const NAMES = ["my_app.v2", "with space", "ünïcödé-café", "emoji🎉dir", "UPPER.lower-Mixed_9"];

describe.skipIf(!available)("project folder names, as the real CLI makes them", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await createRig({ script: { conversations: [], fallbackText: "ok" } });
  });
  afterAll(async () => rig?.dispose());

  const cases: [string, (home: string) => string][] = [
    ...NAMES.map((name) => [name, (home: string) => join(home, name)] as [string, (home: string) => string]),
    ["a path over 200 characters", (home: string) => join(home, ...Array.from({ length: 8 }, (_, i) => `segment_${i}_${"x".repeat(24)}`))],
    [
      "a symlink to a folder",
      (home: string) => {
        mkdirSync(join(home, "real-target"), { recursive: true });
        symlinkSync(join(home, "real-target"), join(home, "link-to-target"));
        return join(home, "link-to-target");
      },
    ],
  ];

  it.each(cases)("%s", async (_label, make) => {
    const cwd = make(rig.home);
    mkdirSync(cwd, { recursive: true });
    const result = await rig.runPrint("hello", { cwd });
    expect(result.exitCode, result.stderr).toBe(0);
    const expected = projectDirFor(cwd, { env: { CLAUDE_CONFIG_DIR: undefined }, homedir: rig.home });
    const made = readdirSync(join(rig.home, ".claude", "projects"));
    console.log(
      `real CLI folder for ${JSON.stringify(cwd.slice(rig.home.length))}: ${made.filter((m) => m.endsWith(expected.split("/").pop()?.slice(-12) ?? "")).join(", ")}`,
    );
    expect(existsSync(join(expected, `${result.sessionId}.jsonl`))).toBe(true);
  });
});
