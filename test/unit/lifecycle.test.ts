/** DisposableObject (core/util/lifecycle.ts): what an owner registers goes with it, newest first, once. */
import { describe, expect, it } from "vitest";
import { Emitter } from "../../src/core/util/emitter";
import { DisposableObject } from "../../src/core/util/lifecycle";

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
