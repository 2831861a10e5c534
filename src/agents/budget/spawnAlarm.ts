/**
 * The spawn-rate alarm: each agent's tool calls the budget's gate let through, and a notice when
 * one runs away (core/budget/callRate.ts: more than 40 a minute for 3 minutes). Told once per
 * episode: again only after its rate has fallen below the mark. The notice offers Pause.
 */
import { ALARM_CALLS_PER_MINUTE, ALARM_MINUTES, recentCalls, runningAway } from "../../core/budget";
import { DisposableObject, Emitter } from "../../core/util";

export interface RunawayNotice {
  agentId: string;
  /** "more than 40 tool calls a minute for 3 minutes" */
  what: string;
}

export class SpawnAlarm extends DisposableObject {
  private readonly times = new Map<string, number[]>();
  private readonly alarmed = new Set<string>();
  private readonly raised = this._register(new Emitter<RunawayNotice>());
  /** An agent started running away. */
  readonly onDidAlarm = this.raised.event;

  constructor(private readonly now: () => number = Date.now) {
    super();
  }

  /** One tool call of the agent went through. */
  called(agentId: string): void {
    const now = this.now();
    const times = recentCalls(this.times.get(agentId) ?? [], now);
    times.push(now);
    this.times.set(agentId, times);
    const away = runningAway(times, now);
    if (!away) {
      this.alarmed.delete(agentId);
      return;
    }
    if (this.alarmed.has(agentId)) return;
    this.alarmed.add(agentId);
    this.raised.fire({ agentId, what: `more than ${ALARM_CALLS_PER_MINUTE} tool calls a minute for ${ALARM_MINUTES} minutes` });
  }

  forget(agentId: string): void {
    this.times.delete(agentId);
    this.alarmed.delete(agentId);
  }
}
