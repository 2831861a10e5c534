/**
 * VS Code's `Event.latch`, kept per key: the event it makes passes a value on only when it differs
 * (by `equals`) from the last value passed for the same key. It is the one place a change is
 * detected before something is sent (a card to the panel, a live view to the card store), so no
 * owner keeps its own "last sent" copy or compares by JSON text.
 */
import { Emitter, type Event } from "./emitter";
import { DisposableObject } from "./lifecycle";

export interface LatchOptions<T> {
  key(value: T): string;
  equals(a: T, b: T): boolean;
}

export class KeyedLatch<T> extends DisposableObject {
  /** A copy of what was last passed on per key: a source may change its own arrays in place later. */
  private readonly last = new Map<string, T>();
  private readonly passed = this._register(new Emitter<T>());
  readonly event: Event<T> = this.passed.event;

  constructor(
    source: Event<T>,
    private readonly options: LatchOptions<T>,
  ) {
    super();
    this._register(source((value) => this.offer(value)));
  }

  /** What was last passed on for `key`, if anything. */
  current(key: string): T | undefined {
    return this.last.get(key);
  }

  keys(): IterableIterator<string> {
    return this.last.keys();
  }

  /** The key is gone: its next value passes whatever it is. Returns whether anything was held for it. */
  forget(key: string): boolean {
    return this.last.delete(key);
  }

  private offer(value: T): void {
    const key = this.options.key(value);
    const before = this.last.get(key);
    if (before !== undefined && this.options.equals(before, value)) return;
    this.last.set(key, structuredClone(value));
    this.passed.fire(value);
  }
}

/** `source`, passing on only what changed per key (see KeyedLatch). */
export function latch<T>(source: Event<T>, options: LatchOptions<T>): KeyedLatch<T> {
  return new KeyedLatch(source, options);
}
