/**
 * An agent followed live, the way the extension will follow one: a SessionFollower on its current
 * transcript, and a ProjectFolderWatcher that moves it to the file a `/clear` starts. Engine
 * timers run on a ManualClock (tests advance it); file reading runs on the real clock.
 */
import { deriveToolCalls } from "../../src/core/agent/toolCalls";
import { ProjectFolderWatcher } from "../../src/core/engine/projectFolderWatcher";
import { SessionFollower } from "../../src/core/engine/sessionFollower";
import { startsWithClear } from "../../src/core/transcript/clearStart";
import type { TranscriptEvent } from "../../src/core/transcript/events";
import { ManualClock, systemClock } from "../../src/core/util/clock";
import { SafetyPoll } from "../../src/core/util/safetyPoll";
import type { Expectation, Seen } from "./expectations";

export class LiveAgent {
  readonly clock = new ManualClock();
  readonly events: TranscriptEvent[] = [];
  readonly sessions: string[] = [];
  private follower: SessionFollower | undefined;
  private folder: ProjectFolderWatcher | undefined;
  private readonly listeners = new Set<() => void>();
  private stopped = false;

  constructor(private readonly projectDir: string) {}

  async start(transcript: string): Promise<void> {
    await this.follow(transcript);
    // A poll of its own that never backs off: the rig's sessions are short, and quick.
    this.folder = new ProjectFolderWatcher(this.projectDir, { safetyPoll: new SafetyPoll({ baseMs: 250, maxMs: 250 }) });
    this.folder.onDidAddTranscript((path) => void this.consider(path));
    await this.folder.start();
  }

  seen(): Seen {
    const state = this.follower?.state;
    if (!state) throw new Error("not following anything yet");
    return { state, calls: deriveToolCalls(this.events), events: [...this.events] };
  }

  /** Runs `expectation` each time something changes until it passes; fails with its last error. */
  async expectEventually(expectation: Expectation, timeoutMs = 8000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        expectation(this.seen());
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 100);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.listeners.add(done);
      });
      this.listeners.clear();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.folder?.stop();
    await this.follower?.stop();
  }

  private async follow(path: string): Promise<void> {
    if (this.follower) {
      this.events.push(...(await this.follower.endSession()));
    }
    this.sessions.push(path);
    // A test drives the idle timer itself; reading files goes on in real time.
    const follower = new SessionFollower(path, { restore: false, clock: this.clock, pollClock: systemClock });
    follower.onDidChange(({ events }) => {
      this.events.push(...events);
      for (const listener of [...this.listeners]) listener();
    });
    this.follower = follower;
    await follower.start();
  }

  /** A new transcript in the project folder: ours only if a /clear started it (checked as it fills). */
  private async consider(path: string): Promise<void> {
    if (this.sessions.includes(path)) return;
    for (let i = 0; i < 100 && !this.stopped; i++) {
      if (await startsWithClear(path)) {
        await this.follow(path);
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
