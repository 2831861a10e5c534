/** How a SessionFollower (./sessionFollower.ts) is driven: its clocks, its polls and watches, and whom it tells what. */
import type { Clock, SafetyPoll, WatchFactory } from "../util";
import type { TranscriptRead } from "./transcriptRead";

export interface FollowerOptions {
  /** Drives the engine's timers (the idle fallback). */
  clock?: Clock;
  /** Drives the safety poll and the trailing reads; defaults to `clock`. */
  pollClock?: Clock;
  idleDelayMs?: number;
  /** Rebuild the state from the current turn at the file's tail instead of reading it all. */
  restore?: boolean;
  /**
   * The safety poll's base interval (util/safetyPoll.ts: backing off while nothing happens). Given,
   * or with a poll clock other than the system's, the follower has a poll of its own; else it joins
   * the process's shared one.
   */
  pollIntervalMs?: number;
  /** A safety poll to join (wins over pollIntervalMs). */
  safetyPoll?: SafetyPoll;
  maxBytesPerRead?: number;
  /** Lines longer than this are dropped and reported (default: the reader's 64 MB). */
  maxLineBytes?: number;
  watch?: WatchFactory;
  /**
   * The owner knows the agent works though its transcript may not say so yet (its status file is
   * busy). The follower also counts its agent as working while a turn is under way or a tool is
   * open; while it works, its files are looked at every second even without file events.
   */
  working?: () => boolean;
  /** Reading failed for a reason other than the file not existing yet. */
  onError?: (err: unknown) => void;
  /** Something was skipped and the card may miss it (a sub-agent entry that is not a readable file). */
  onWarning?: (message: string) => void;
  /**
   * The session's file was deleted, truncated or replaced: everything read from it before is void
   * (events included). Called before the engine's state goes back to its start.
   */
  onReset?: () => void;
  /**
   * Everything read, as it is read (./transcriptRead.ts), for what else derives from the session.
   * Given, a restore also reads what lies before its restore point (main file and sub-agent files),
   * once, for this alone.
   */
  onRead?: (read: TranscriptRead) => void;
}
