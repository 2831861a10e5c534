/**
 * Arcadia's own expansion of `*` and `?` against bash's, on one planted tree: for every pattern
 * the names must be bash's (LC_ALL=C.UTF-8: code point order, `?` one character), so what the policy checks is what bash would
 * have run — dot files, folders followed through links, quoted wildcards, no match.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeCommandDisk } from "../../../src/core/tools/commandDisk";
import { expandPattern } from "../../../src/core/tools/globExpansion";
import { nodeWorkspaceFiles } from "../../../src/core/tools/nodeWorkspaceFiles";
import { shellWords } from "../../../src/core/tools/shellWords";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();
const hasBash = spawnSync("bash", ["--version"]).status === 0;

function plant(): string {
  const dir = realpathSync(tempDir());
  for (const name of ["a.ts", "b.ts", "B.ts", "ab.js", ".hidden.ts", "é.ts", "Z", "a b.ts", "star*.txt", "q?.txt"]) writeFileSync(join(dir, name), name);
  mkdirSync(join(dir, "src", "deep"), { recursive: true });
  mkdirSync(join(dir, "lib"));
  for (const name of ["x.ts", "y.tsx"]) writeFileSync(join(dir, "src", name), name);
  writeFileSync(join(dir, "src", "deep", "z.ts"), "z");
  writeFileSync(join(dir, "lib", "x.ts"), "x");
  symlinkSync("src", join(dir, "linked"));
  symlinkSync("nowhere", join(dir, "dangling.ts"));
  return dir;
}

/** The words bash gives `line` after expansion, in its folder. */
function bashWords(dir: string, line: string): string[] {
  const out = spawnSync("bash", ["-c", `printf '%s\\0' ${line}`], { cwd: dir, env: { PATH: process.env.PATH, LC_ALL: "C.UTF-8" }, encoding: "utf8" }).stdout;
  return out.split("\0").slice(0, -1);
}

async function arcadiaWords(dir: string, line: string): Promise<string[]> {
  const disk = nodeCommandDisk(nodeWorkspaceFiles([dir]));
  const out: string[] = [];
  for (const word of shellWords(line) ?? []) {
    if (!word.glob) {
      out.push(word.text);
      continue;
    }
    const expansion = await expandPattern(word.pattern, dir, disk, 1000);
    if (!("matches" in expansion)) throw new Error(`not expanded: ${line}`);
    out.push(...(expansion.matches.length ? expansion.matches : [word.text]));
  }
  return out;
}

const PATTERNS = [
  "*",
  "*.ts",
  "?.ts",
  "a*",
  ".*.ts",
  "src/*",
  "*/*.ts",
  "*/x.ts",
  "linked/*",
  "*/deep/*",
  "s?c/*.ts*",
  "nomatch*",
  "'*'.ts",
  '"a"*',
  "star\\*.txt",
  "star*",
  "q\\?.txt",
  "q?.txt",
  "*/",
  "src/*/",
  "./*.js",
  "dangling*",
  "a\\ *",
];

describe.skipIf(!hasBash || process.platform === "win32")("Arcadia's expansion of * and ? agrees with bash", () => {
  it.each(PATTERNS)("%s", async (pattern) => {
    const root = plant();
    expect(await arcadiaWords(root, pattern)).toEqual(bashWords(root, pattern));
  });
});

describe("what it does not expand", () => {
  it("a bracket expression, unquoted, is refused; quoted, it is a name", async () => {
    const dir = plant();
    const disk = nodeCommandDisk(nodeWorkspaceFiles([dir]));
    const [unquoted] = shellWords("[ab].ts") ?? [];
    expect(await expandPattern(unquoted!.pattern, dir, disk, 10)).toEqual({ unsupported: "a bracket expression ([…])" });
    const [quoted] = shellWords("'[ab]'*") ?? [];
    expect(await expandPattern(quoted!.pattern, dir, disk, 10)).toEqual({ matches: [] });
  });

  it("more names than the limit", async () => {
    const dir = plant();
    expect(await expandPattern("*", dir, nodeCommandDisk(nodeWorkspaceFiles([dir])), 3)).toEqual({ tooMany: true });
  });
});
