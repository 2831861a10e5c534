/**
 * The window's queue (core/queue), kept in the workspace's state through a port (as the race book
 * keeps races) so it survives a window reload and a restart of VS Code. Every change is a pure
 * function of core/queue applied here and saved before it is told, so a step recorded here is on
 * disk before the step itself is taken (no task lost, none typed twice). A change the model refuses
 * throws its message (the user's words) and changes nothing.
 */
import { type Queue, readQueue } from "../../core/queue";
import { DisposableObject, Emitter } from "../../core/util";

export interface QueueStore {
  load(): unknown;
  save(queue: Queue | null): Promise<void>;
}

export class QueueBook extends DisposableObject {
  private current: Queue | null;
  /** What could not be read back of the saved queue, in the user's words (said once by the caller). */
  readonly problems: readonly string[];
  private readonly changed = this._register(new Emitter<Queue | null>());
  /** The queue changed (saved already). */
  readonly onDidChange = this.changed.event;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: QueueStore,
    private readonly log: (message: string) => void = () => undefined,
  ) {
    super();
    const read = readQueue(store.load());
    this.current = read.queue;
    this.problems = read.problems;
  }

  get queue(): Queue | null {
    return this.current;
  }

  /** Replaces the queue (a new one, or none). */
  async set(queue: Queue | null): Promise<void> {
    this.current = queue;
    await this.save();
  }

  /** Applies `change` (a core/queue move) to the queue; throws the model's refusal, or when there is no queue. */
  async update(change: (queue: Queue) => Queue): Promise<Queue> {
    if (!this.current) throw new Error("There is no queue: queue tasks first (Arcadia: Queue Tasks…).");
    this.current = change(this.current);
    await this.save();
    return this.current;
  }

  /** The task whose agent this is, if any. */
  taskOfAgent(agentId: string): string | undefined {
    return this.current?.tasks.find((t) => t.start?.agentId === agentId)?.id;
  }

  private async save(): Promise<void> {
    // Saved one after another, each with the queue as it is then: the last save holds the last state.
    const queue = this.current;
    this.saving = this.saving.then(() => this.store.save(queue)).catch((err: unknown) => this.log(`saving the queue failed: ${String(err)}`));
    await this.saving;
    this.changed.fire(queue);
  }
}
