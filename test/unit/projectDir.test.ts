import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeConfigDir, projectDirFor, projectSlug, samePath } from "../../src/core/transcript/projectDir";

// Folder names the real CLI (2.1.330) created when started in these folders. The live check,
// against whatever folders a test machine has, is test/integration/projectSlug.test.ts.
const FROM_THE_REAL_CLI: [string, string][] = [
  ["/tmp/arcadia-slug-probe/my_app.v2", "-tmp-arcadia-slug-probe-my-app-v2"],
  ["/tmp/arcadia-slug-probe/with space", "-tmp-arcadia-slug-probe-with-space"],
  ["/tmp/arcadia-slug-probe/ünïcödé-café", "-tmp-arcadia-slug-probe--n-c-d--caf-"],
  ["/tmp/arcadia-slug-probe/emoji🎉dir", "-tmp-arcadia-slug-probe-emoji--dir"],
  [
    `/tmp/arcadia-slug-probe/${Array.from({ length: 8 }, (_, i) => `segment_${i}_${"x".repeat(24)}`).join("/")}`,
    "-tmp-arcadia-slug-probe-segment-0-xxxxxxxxxxxxxxxxxxxxxxxx-segment-1-xxxxxxxxxxxxxxxxxxxxxxxx-segment-2-xxxxxxxxxxxxxxxxxxxxxxxx-segment-3-xxxxxxxxxxxxxxxxxxxxxxxx-segment-4-xxxxxxxxxxxxxxxxxxxxxxxx-s-6cfp81",
  ],
];

describe("projectSlug", () => {
  it.each(FROM_THE_REAL_CLI)("%s → the folder the CLI made", (cwd, folder) => {
    expect(projectSlug(cwd)).toBe(folder);
  });

  it("follows the documented examples", () => {
    expect(projectSlug("/home/dev/my_app.v2")).toBe("-home-dev-my-app-v2");
    expect(projectSlug("C:\\x")).toBe("C--x");
  });
});

describe("projectDirFor", () => {
  it("uses CLAUDE_CONFIG_DIR when set, ~/.claude otherwise", () => {
    const id = (p: string) => p;
    expect(projectDirFor("/w/app", { env: { CLAUDE_CONFIG_DIR: "/cfg" }, homedir: "/home/u", realpath: id })).toBe(join("/cfg", "projects", "-w-app"));
    expect(projectDirFor("/w/app", { env: {}, homedir: "/home/u", realpath: id })).toBe(join("/home/u", ".claude", "projects", "-w-app"));
    expect(claudeConfigDir({ env: { CLAUDE_CONFIG_DIR: "  " }, homedir: "/h" })).toBe(join("/h", ".claude"));
  });

  it("with no folder open, the project is the home directory", () => {
    expect(projectDirFor(undefined, { env: {}, homedir: "/home/u", realpath: (p) => p })).toBe(join("/home/u", ".claude", "projects", "-home-u"));
  });

  it("resolves symlinks the way the CLI does (realpath)", () => {
    const realpath = (p: string) => (p === "/link" ? "/real/place" : p);
    expect(projectDirFor("/link", { env: {}, homedir: "/h", realpath })).toBe(join("/h", ".claude", "projects", "-real-place"));
  });
});

describe("samePath", () => {
  it("compares case-insensitively on Windows only", () => {
    expect(samePath("C:\\Users\\A", "c:\\users\\a", "win32")).toBe(true);
    expect(samePath("/home/A", "/home/a", "linux")).toBe(false);
  });
});
