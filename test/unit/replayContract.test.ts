/**
 * README's `arcadia replay --json` contract is the output: the values it lists for `outcome`,
 * `status` and `lastTurn` are every value the code can print, no more, no fewer (replay printed
 * `denied`, which the contract did not list), and what replay prints for every recorded session
 * is among them.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { replayCommand } from "../../src/cli/replayCommand";
import { JSON_CONTRACT_VALUES } from "../../src/cli/replayFormat";
import { loadScenario, recordedScenarioNames, sessionFiles } from "../support/recorded";

const README = readFileSync(resolve(__dirname, "../../README.md"), "utf8");

/** The backticked words of the contract's bullet for `field` (`  - \`field\`: …;`, possibly over several lines). */
function documented(field: string): string[] {
  const section = README.slice(README.indexOf("node dist/cli.js replay"));
  const start = section.indexOf(`- \`${field}\`:`);
  expect(start, `README's replay section has a "- \`${field}\`:" bullet`).toBeGreaterThanOrEqual(0);
  const rest = section.slice(start + field.length + 5);
  const bullet = rest.slice(0, rest.search(/\n\s*-|\n\n/));
  return [...bullet.matchAll(/`([a-z]+)`/g)].map((m) => m[1] as string);
}

async function printed(files: string[]): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const code = await replayCommand(files, true, { out: (l) => lines.push(l), err: () => undefined });
  expect(code).toBe(0);
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("README's replay --json contract", () => {
  it.each(Object.entries(JSON_CONTRACT_VALUES))("lists every value of %s the code can print, and no other", (field, values) => {
    expect(new Set(documented(field))).toEqual(new Set(values));
  });

  it("covers what replay prints for every recorded session (a denial among them)", async () => {
    const seen = { outcome: new Set<unknown>(), status: new Set<unknown>(), lastTurn: new Set<unknown>() };
    for (const name of recordedScenarioNames()) {
      for (const line of await printed(sessionFiles(loadScenario(name)))) {
        if (line.kind === "tool") seen.outcome.add(line.outcome);
        else for (const field of ["status", "lastTurn"] as const) seen[field].add(line[field]);
      }
    }
    expect(seen.outcome).toContain("denied");
    for (const [field, values] of Object.entries(seen)) for (const value of values) expect(documented(field), field).toContain(value);
  });
});
