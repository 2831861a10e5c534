/**
 * A long-lived object that owns what it registers (VS Code's lifecycle.ts pattern): subscriptions,
 * emitters and child objects are `_register`ed as they are made and disposed with it, newest
 * first, each once, one failure not stopping the rest. No hand-written list of what to dispose:
 * a loop disposing items lives here only (eslint.config.mjs flags one anywhere else).
 *
 * Owned things that come and go by key (a tracked process per terminal, a tab per race) are a
 * DisposableMap; a function that hands back several subscriptions as one, combinedDisposable.
 */
import { type Disposable, DisposableStore } from "./emitter";

export abstract class DisposableObject implements Disposable {
  private readonly owned = new DisposableStore();

  /** Owns `item`: disposed with this object (at once if it is disposed already). */
  protected _register<D extends Disposable>(item: D): D {
    return this.owned.add(item);
  }

  dispose(): void {
    this.owned.dispose();
  }
}

/** Several disposables as one: each disposed once, newest first, one failure not stopping the rest. */
export function combinedDisposable(...items: Disposable[]): Disposable {
  const store = new DisposableStore();
  for (const item of items) store.add(item);
  return store;
}

/**
 * Disposables by key, owned (VS Code's DisposableMap): one replaced or deleted is disposed, and
 * every one left with the map. After dispose(), a value set is disposed at once (a late watch never leaks).
 */
export class DisposableMap<K, V extends Disposable> implements Disposable {
  private readonly items = new Map<K, V>();
  private disposed = false;

  constructor(private readonly onError?: (err: unknown) => void) {}

  get size(): number {
    return this.items.size;
  }

  get(key: K): V | undefined {
    return this.items.get(key);
  }

  has(key: K): boolean {
    return this.items.has(key);
  }

  keys(): IterableIterator<K> {
    return this.items.keys();
  }

  values(): IterableIterator<V> {
    return this.items.values();
  }

  entries(): IterableIterator<[K, V]> {
    return this.items.entries();
  }

  /** Owns `value` under `key`; the value it replaces (another one) is disposed. Returns `value`. */
  set(key: K, value: V): V {
    const replaced = this.items.get(key);
    if (this.disposed) {
      this.disposeAll([value]);
      return value;
    }
    this.items.set(key, value);
    if (replaced && replaced !== value) this.disposeAll([replaced]);
    return value;
  }

  /** Disposes the value under `key` and forgets it; false when there was none. */
  deleteAndDispose(key: K): boolean {
    const value = this.items.get(key);
    if (!this.items.delete(key)) return false;
    this.disposeAll([value as V]);
    return true;
  }

  /** Forgets the value under `key` without disposing it: it went on its own (a tab the user closed). */
  deleteAndLeak(key: K): V | undefined {
    const value = this.items.get(key);
    this.items.delete(key);
    return value;
  }

  /** Disposes every value (newest first) and forgets them; the map stays usable. */
  clearAndDisposeAll(): void {
    const all = [...this.items.values()];
    this.items.clear();
    this.disposeAll(all);
  }

  dispose(): void {
    this.disposed = true;
    this.clearAndDisposeAll();
  }

  private disposeAll(values: readonly V[]): void {
    const store = new DisposableStore(this.onError);
    for (const value of values) store.add(value);
    store.dispose();
  }
}
