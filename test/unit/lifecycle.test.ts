/** lifecycle.ts: what an owner registers (DisposableObject), holds by key (DisposableMap) or combines goes with it, newest first, once. */
import { describe, expect, it } from "vitest";
import { Emitter } from "../../src/core/util/emitter";
import { combinedDisposable, DisposableMap, DisposableObject } from "../../src/core/util/lifecycle";

class Owner extends DisposableObject {
  readonly gone: string[] = [];
  readonly changed = this._register(new Emitter<number>());

  constructor() {
    super();
    this._register({ dispose: () => this.gone.push("first") });
    this._register({ dispose: () => this.gone.push("second") });
  }

  late(name: string): void {
    this._register({ dispose: () => this.gone.push(name) });
  }
}

describe("an owner of what it registers", () => {
  it("disposes everything it registered once, newest first, its emitters' listeners with them", () => {
    const owner = new Owner();
    const heard: number[] = [];
    owner.changed.event((n) => heard.push(n));
    owner.changed.fire(1);
    owner.dispose();
    owner.dispose();
    owner.changed.fire(2);
    expect(owner.gone).toEqual(["second", "first"]);
    expect(heard).toEqual([1]);
  });

  it("disposes at once what is registered after it went (a late subscription never leaks)", () => {
    const owner = new Owner();
    owner.dispose();
    owner.late("late");
    expect(owner.gone).toEqual(["second", "first", "late"]);
  });
});

describe("owned things by key (DisposableMap)", () => {
  const item = (gone: string[], name: string) => ({ name, dispose: () => gone.push(name) });

  it("disposes a value when it is replaced or deleted, never one that went on its own, and the rest with the map, once", () => {
    const gone: string[] = [];
    const map = new DisposableMap<string, { name: string; dispose(): void }>();
    map.set("tab", item(gone, "tab 1"));
    map.set("tab", item(gone, "tab 2"));
    map.set("watch", item(gone, "watch"));
    map.set("closed", item(gone, "closed by the user"));
    expect(map.deleteAndLeak("closed")?.name).toBe("closed by the user");
    expect(map.deleteAndDispose("watch")).toBe(true);
    expect(map.deleteAndDispose("watch")).toBe(false);
    map.set("other", item(gone, "other"));
    map.dispose();
    map.dispose();
    expect(gone).toEqual(["tab 1", "watch", "other", "tab 2"]);
    expect(map.size).toBe(0);
  });

  it("disposes at once a value set after it went (a late watch never leaks), and goes on past one that fails", () => {
    const gone: string[] = [];
    const errors: unknown[] = [];
    const map = new DisposableMap<string, { dispose(): void }>((err) => errors.push(err));
    map.set("a", item(gone, "a"));
    map.set("b", {
      dispose: () => {
        throw new Error("b failed");
      },
    });
    map.dispose();
    map.set("late", item(gone, "late"));
    expect(gone).toEqual(["a", "late"]);
    expect(errors).toHaveLength(1);
    expect(map.has("late")).toBe(false);
  });
});

describe("several subscriptions as one (combinedDisposable)", () => {
  it("disposes each once, newest first", () => {
    const gone: string[] = [];
    const both = combinedDisposable({ dispose: () => gone.push("first") }, { dispose: () => gone.push("second") });
    both.dispose();
    both.dispose();
    expect(gone).toEqual(["second", "first"]);
  });
});
