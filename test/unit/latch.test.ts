/** The one change detector (core/util/latch.ts): a value passes when it differs from the last one passed for its key. */
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { Emitter } from "../../src/core/util/emitter";
import { latch } from "../../src/core/util/latch";

type View = { id: string; rows: string[] };

function setup() {
  const source = new Emitter<View>();
  const latched = latch<View>(source.event, { key: (v) => v.id, equals: isDeepStrictEqual });
  const passed: View[] = [];
  latched.event((v) => passed.push(structuredClone(v)));
  return { source, latched, passed };
}

describe("latch", () => {
  it("passes the first value per key, then only changes", () => {
    const { source, passed } = setup();
    source.fire({ id: "a", rows: ["x"] });
    source.fire({ id: "a", rows: ["x"] });
    source.fire({ id: "b", rows: ["x"] });
    source.fire({ id: "a", rows: ["x", "y"] });
    expect(passed).toEqual([
      { id: "a", rows: ["x"] },
      { id: "b", rows: ["x"] },
      { id: "a", rows: ["x", "y"] },
    ]);
  });

  it("keeps its own copy: a source that changes its array in place after firing is still seen to change", () => {
    const { source, passed } = setup();
    const rows = ["x"];
    source.fire({ id: "a", rows });
    rows.push("y");
    source.fire({ id: "a", rows });
    expect(passed.map((v) => v.rows)).toEqual([["x"], ["x", "y"]]);
  });

  it("a forgotten key passes its next value whatever it is; disposed, nothing passes", () => {
    const { source, latched, passed } = setup();
    source.fire({ id: "a", rows: [] });
    expect(latched.forget("a")).toBe(true);
    expect(latched.current("a")).toBeUndefined();
    source.fire({ id: "a", rows: [] });
    expect(passed).toHaveLength(2);
    latched.dispose();
    source.fire({ id: "a", rows: ["z"] });
    expect(passed).toHaveLength(2);
  });
});
