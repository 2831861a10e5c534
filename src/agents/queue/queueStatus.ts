/**
 * The queue on one line for the panel ("Queue: 7 waiting · 3 running · 12 done · 1 needs you",
 * core/queue's summary), with why nothing starts when the user should hear it (paused, base gone,
 * paused at budget: the runner's gates as it last found them). Told when either changes; nothing
 * when there is no queue or it has no task.
 */
import type { StartGates } from "../../core/queue";
import { queueSummary } from "../../core/queue";
import { DisposableObject, Emitter } from "../../core/util";
import type { QueueBook } from "./queueBook";

export class QueueStatus extends DisposableObject {
  private gates: StartGates = {};
  private last: string | null;
  private readonly changed = this._register(new Emitter<string | null>());
  /** The line changed (null: no queue to show). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly book: QueueBook) {
    super();
    this.last = this.line();
    this._register(book.onDidChange(() => this.tell()));
  }

  line(): string | null {
    const queue = this.book.queue;
    return queue && queue.tasks.length > 0 ? queueSummary(queue, this.gates) : null;
  }

  gatesFound(gates: StartGates): void {
    this.gates = gates;
    this.tell();
  }

  private tell(): void {
    const line = this.line();
    if (line === this.last) return;
    this.last = line;
    this.changed.fire(line);
  }
}
