/**
 * A session's transcript read into a card's session figures as an agent's follower reads it: a
 * real SessionFollower whose reads go to the SessionCards (onRead), started (what is on disk is
 * read) and stopped. Read again later, it starts from the file's start (a new follower), as after
 * a reload.
 */
import type { SessionCards } from "../../src/agents/sessions/sessionCards";
import { SessionFollower } from "../../src/core/engine";

export async function readInto(cards: SessionCards, agentId: string, transcript: string, restore = false): Promise<void> {
  const follower = new SessionFollower(transcript, { restore, pollIntervalMs: 60_000, onRead: (read) => cards.read(agentId, read) });
  await follower.start();
  await follower.stop();
}

/** The agent follows this session from now on, nothing of it read yet (a follower just started on it). */
export function follows(cards: SessionCards, agentId: string, transcript: string): void {
  cards.read(agentId, { kind: "reset", session: transcript });
}

/** Live sessions read as their agents work: one follower per agent, started on its first touch, looked at again on each. */
export class LiveSessionReads {
  private readonly followers = new Map<string, SessionFollower>();

  constructor(private readonly cards: SessionCards) {}

  /** The agent did something (a hook came): its transcript is read for what it gained. */
  touch(agentId: string, transcript: string): void {
    const known = this.followers.get(agentId);
    if (known?.path === transcript) return void known.pump();
    void known?.stop();
    const follower = new SessionFollower(transcript, { restore: false, pollIntervalMs: 60_000, onRead: (read) => this.cards.read(agentId, read) });
    this.followers.set(agentId, follower);
    void follower.start();
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.followers.values()].map((f) => f.stop()));
    this.followers.clear();
  }
}
