/**
 * What a session's follower read, handed on as it reads it, so that what else is derived from a
 * transcript (a card's session figures: tokens, cost, edited files, earlier turns) is folded from
 * the same read instead of reading the file again. Every byte of the session's files comes by once:
 * from the restore point on with the engine's events for it; before the restore point (a prefix the
 * engine skips) without events, for the receiver to interpret once itself.
 */
import type { Json, RecordSource, TranscriptEvent } from "../transcript";

export type TranscriptRead =
  | {
      kind: "records";
      /** The session's own file (its path names the session). */
      session: string;
      source: RecordSource;
      records: readonly Json[];
      /** The engine's events for these records; absent for a prefix the engine did not read (restore). */
      events?: readonly TranscriptEvent[];
    }
  /** The session's file was deleted or rewritten: everything handed on before is void. */
  | { kind: "reset"; session: string };
