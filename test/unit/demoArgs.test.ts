import { describe, expect, it } from "vitest";
import { parseArgs } from "../../scripts/demo/args";

describe("the demo's command line", () => {
  it("takes the README's form, with npm's separator repeated before each flag", () => {
    // `npm run demo -- --port 8123 -- --keep` reaches the script as these four words.
    expect(parseArgs(["--port", "8123", "--", "--keep"])).toEqual({ port: 8123, keep: true });
  });

  it("takes --port=N and no flags at all", () => {
    expect(parseArgs(["--port=9000"])).toEqual({ port: 9000, keep: false });
    expect(parseArgs([]).keep).toBe(false);
  });

  it("refuses an unknown argument and a port out of range, saying what it wants", () => {
    expect(() => parseArgs(["--kep"])).toThrow(/unknown argument --kep \(try --help\)/);
    expect(() => parseArgs(["--port", "70000"])).toThrow(/--port wants a number from 0 to 65535/);
  });
});
