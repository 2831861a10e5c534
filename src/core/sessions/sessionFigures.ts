/**
 * A card's figures of its whole session — tokens and cost, edited files, earlier turns, a limit —
 * folded from what the session's follower read (core/engine's TranscriptRead), never from a reading
 * of its own: records the engine interpreted come with its events; a prefix it skipped on restore
 * comes without, and is interpreted here, once.
 */
import type { TranscriptRead } from "../engine";
import { sessionIdOf } from "../transcript";
import { SessionDigestFold } from "./sessionDigest";

export class SessionFigures {
  private fold: SessionDigestFold;

  /** @param session the session's own file; `cwd` its folder (edited files are resolved against it). */
  constructor(
    readonly session: string,
    private readonly cwd?: string,
  ) {
    this.fold = new SessionDigestFold(sessionIdOf(session), cwd);
  }

  get current(): SessionDigestFold {
    return this.fold;
  }

  /** Folds one read of this session; true when the figures may have changed. */
  take(read: TranscriptRead): boolean {
    if (read.kind === "reset") {
      this.fold = new SessionDigestFold(this.fold.sessionId, this.cwd);
      return true;
    }
    if (read.records.length === 0) return false;
    // A sub-agent's file: its tokens count for the session (its edits and turns are its parent's Agent call).
    if (read.source.kind !== "main") for (const record of read.records) this.fold.addUsage(record);
    else if (read.events === undefined) for (const record of read.records) this.fold.add(record);
    else {
      for (const record of read.records) this.fold.note(record);
      this.fold.addEvents(read.events);
    }
    return true;
  }
}
