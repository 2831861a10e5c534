/**
 * The events of the current turn, kept so a card can show the turn's finished tools (derived by
 * agent/cardTools.ts). Starts over at each turn start; bounded, so a turn with thousands of tool
 * calls keeps only its most recent events.
 */
import type { TranscriptEvent } from "../transcript";

export const TURN_LOG_MAX_EVENTS = 2000;

export class TurnLog {
  private log: TranscriptEvent[] = [];

  constructor(private readonly max = TURN_LOG_MAX_EVENTS) {}

  get events(): readonly TranscriptEvent[] {
    return this.log;
  }

  add(events: readonly TranscriptEvent[]): void {
    for (const event of events) {
      if (event.kind === "prompt" || event.kind === "slashCommand" || event.kind === "sessionEnd") this.log = [];
      if (event.kind === "usage" || event.kind === "sessionEnd") continue;
      this.log.push(event);
    }
    if (this.log.length > this.max) this.log = this.log.slice(this.log.length - this.max);
  }

  clear(): void {
    this.log = [];
  }
}
