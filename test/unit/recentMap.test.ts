import { describe, expect, it } from "vitest";
import { RecentMap } from "../../src/core/util/recentMap";

describe("RecentMap", () => {
  it("keeps at least the last half-capacity entries and never more than the capacity", () => {
    const map = new RecentMap<number, string>(10);
    for (let i = 0; i < 1000; i++) map.set(i, `v${i}`);
    expect(map.size).toBeLessThanOrEqual(10);
    for (let i = 995; i < 1000; i++) expect(map.get(i)).toBe(`v${i}`);
    expect(map.has(0)).toBe(false);
  });

  it("add (for keys not there) keeps the same bound and the newest entries", () => {
    const map = new RecentMap<number, string>(10);
    for (let i = 0; i < 1000; i++) map.add(i, `v${i}`);
    expect(map.size).toBeLessThanOrEqual(10);
    for (let i = 995; i < 1000; i++) expect(map.get(i)).toBe(`v${i}`);
    expect(map.has(0)).toBe(false);
  });

  it("updates and deletes in either generation", () => {
    const map = new RecentMap<string, number>(4);
    map.set("a", 1);
    map.set("b", 2);
    map.set("c", 3); // "a" and "b" are the older generation now
    map.set("a", 10);
    expect(map.get("a")).toBe(10);
    expect(map.delete("b")).toBe(true);
    expect(map.has("b")).toBe(false);
    expect(map.delete("zzz")).toBe(false);
  });
});
