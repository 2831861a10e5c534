/**
 * A long-lived object that owns what it registers (VS Code's lifecycle.ts pattern): subscriptions,
 * emitters and child objects are `_register`ed as they are made and disposed with it, newest
 * first, each once, one failure not stopping the rest. No hand-written list of what to dispose.
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
