import { describe, expect, it } from "vitest";
import { DisposableStore, Emitter, liveEmitterSubscriptions } from "../../src/core/util/emitter";

describe("Emitter", () => {
  it("calls every listener with the value until its subscription is disposed", () => {
    const emitter = new Emitter<number>();
    const a: number[] = [];
    const b: number[] = [];
    const subA = emitter.event((v) => a.push(v));
    emitter.event((v) => b.push(v));
    emitter.fire(1);
    subA.dispose();
    emitter.fire(2);
    expect(a).toEqual([1]);
    expect(b).toEqual([1, 2]);
  });

  it("counts live subscriptions over every emitter: disposed twice or with their emitter, each counts once", () => {
    const before = liveEmitterSubscriptions();
    const a = new Emitter<number>();
    const b = new Emitter<number>();
    const sub = a.event(() => undefined);
    a.event(() => undefined);
    b.event(() => undefined);
    expect(liveEmitterSubscriptions()).toBe(before + 3);
    sub.dispose();
    sub.dispose();
    expect(liveEmitterSubscriptions()).toBe(before + 2);
    a.dispose();
    expect(liveEmitterSubscriptions()).toBe(before + 1);
    b.dispose();
    expect(liveEmitterSubscriptions()).toBe(before);
  });

  it("reports a listener that throws and still calls the others", () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<string>((err) => errors.push(err));
    const seen: string[] = [];
    emitter.event(() => {
      throw new Error("faulty subscriber");
    });
    emitter.event((v) => seen.push(v));
    expect(() => emitter.fire("x")).not.toThrow();
    expect(seen).toEqual(["x"]);
    expect(errors).toEqual([new Error("faulty subscriber")]);
  });

  it("treats one function subscribed twice as two subscriptions, disposed apart", () => {
    const emitter = new Emitter<number>();
    let calls = 0;
    const listener = () => calls++;
    const first = emitter.event(listener);
    emitter.event(listener);
    first.dispose();
    emitter.fire(0);
    expect(calls).toBe(1);
  });

  it("lets a listener unsubscribe another during a fire, which then is not called again", () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    // eslint-disable-next-line prefer-const
    let second: { dispose(): void };
    emitter.event(() => {
      seen.push("first");
      second.dispose();
    });
    second = emitter.event(() => seen.push("second"));
    emitter.fire(0);
    emitter.fire(0);
    expect(seen).toEqual(["first", "second", "first"]);
  });

  it("after dispose, fires to nobody and takes no new listener", () => {
    const emitter = new Emitter<number>();
    let calls = 0;
    emitter.event(() => calls++);
    emitter.dispose();
    emitter.event(() => calls++);
    emitter.fire(0);
    expect(calls).toBe(0);
    expect(emitter.hasListeners).toBe(false);
  });
});

describe("DisposableStore", () => {
  it("disposes everything once, newest first, past a failing item", () => {
    const errors: unknown[] = [];
    const store = new DisposableStore((err) => errors.push(err));
    const order: string[] = [];
    store.addCallback(() => order.push("first"));
    store.add({
      dispose: () => {
        throw new Error("broken");
      },
    });
    store.addCallback(() => order.push("third"));
    store.dispose();
    store.dispose();
    expect(order).toEqual(["third", "first"]);
    expect(errors).toEqual([new Error("broken")]);
  });

  it("disposes at once what is added after it was disposed", () => {
    const store = new DisposableStore();
    store.dispose();
    let disposed = false;
    store.addCallback(() => (disposed = true));
    expect(disposed).toBe(true);
  });
});
