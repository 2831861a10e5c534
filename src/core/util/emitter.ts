/**
 * The one event pattern of the code base, shaped like VS Code's own (so adapters pass events
 * through unchanged, and a newcomer knows it):
 *
 *   private readonly changed = new Emitter<AgentChange>(log);
 *   readonly onDidChange = this.changed.event;      // subscribe: returns a Disposable
 *   this.changed.fire(change);                        // notify
 *
 * A listener that throws is caught and reported (to `onListenerError`, else console.error), so one
 * faulty subscriber can neither stop the others nor break the code that fired the event.
 */

/** Structurally VS Code's `Disposable`: anything with `dispose()`. */
export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Disposable;

/** Subscriptions not yet disposed, over every Emitter of the process: a leak shows as growth (bench/soak.ts counts them). */
let liveSubscriptions = 0;

export function liveEmitterSubscriptions(): number {
  return liveSubscriptions;
}

export class Emitter<T> implements Disposable {
  private readonly listeners = new Set<(value: T) => void>();
  private disposed = false;

  constructor(private readonly onListenerError: (err: unknown) => void = (err) => console.error("Arcadia: an event listener failed", err)) {}

  /** Subscribe; dispose the result to stop listening. */
  readonly event: Event<T> = (listener) => {
    if (this.disposed) return { dispose: () => undefined };
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const once = (value: T) => listener(value);
    this.listeners.add(once);
    liveSubscriptions++;
    return {
      dispose: () => {
        if (this.listeners.delete(once)) liveSubscriptions--;
      },
    };
  };

  fire(value: T): void {
    if (this.listeners.size === 0) return;
    // A copy: a listener may subscribe or unsubscribe others while being called.
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  dispose(): void {
    this.disposed = true;
    liveSubscriptions -= this.listeners.size;
    this.listeners.clear();
  }
}

/**
 * What one owner must clean up, in one place: add disposables as they are made, dispose them all
 * (newest first, each once, one failure not stopping the rest) when the owner goes.
 */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  constructor(private readonly onError: (err: unknown) => void = (err) => console.error("Arcadia: cleanup failed", err)) {}

  /** Adds `item` and returns it; an item added after dispose() is disposed at once. */
  add<D extends Disposable>(item: D): D {
    if (this.disposed) this.disposeOne(item);
    else this.items.push(item);
    return item;
  }

  /** A plain cleanup function as a Disposable. */
  addCallback(cleanup: () => void): Disposable {
    return this.add({ dispose: cleanup });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const item of this.items.splice(0).reverse()) this.disposeOne(item);
  }

  private disposeOne(item: Disposable): void {
    try {
      item.dispose();
    } catch (err) {
      this.onError(err);
    }
  }
}
