/**
 * The window's races (core/races/race.ts), kept in the workspace's state through a port so they
 * survive a window reload and a restart of VS Code, and the source of each card's race tag
 * ("race: fix-title · 2 of 3"). Every change is saved before it is told.
 */
import { parseRaces, type Race, raceOfAgent } from "../../core/races";
import { DisposableObject, Emitter } from "../../core/util";
import type { RaceTagView } from "../../shared/protocol";

export interface RaceStore {
  load(): unknown;
  save(races: readonly Race[]): Promise<void>;
}

export class RaceBook extends DisposableObject {
  private races: Race[];
  private readonly changedRace = this._register(new Emitter<string>());
  private readonly changedAgents = this._register(new Emitter<string[]>());
  /** A race changed (by id). */
  readonly onDidChangeRace = this.changedRace.event;
  /** The race tags of these cards changed (the live board's source). */
  readonly onDidChange = this.changedAgents.event;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: RaceStore,
    private readonly log: (message: string) => void = () => undefined,
  ) {
    super();
    this.races = parseRaces(store.load());
  }

  all(): readonly Race[] {
    return this.races;
  }

  get(id: string): Race | undefined {
    return this.races.find((r) => r.id === id);
  }

  async add(race: Race): Promise<void> {
    if (this.get(race.id)) throw new Error(`race ${race.id} exists`);
    this.races = [...this.races, race];
    await this.changed(race, undefined);
  }

  /** Applies `change` to the race (a pure function of core/races/race.ts); the new race, or undefined when it is gone. */
  async update(id: string, change: (race: Race) => Race): Promise<Race | undefined> {
    const before = this.get(id);
    if (!before) return undefined;
    const after = change(before);
    this.races = this.races.map((r) => (r.id === id ? after : r));
    await this.changed(after, before);
    return after;
  }

  /** A card's race tag, or null. */
  race(agentId: string): RaceTagView | null {
    const found = raceOfAgent(this.races, agentId);
    if (!found) return null;
    const { race, member } = found;
    const notStarted = member.notStarted ?? null;
    return { raceId: race.id, task: race.task, member: member.number, of: race.members.length, picked: race.picked === member.name, notStarted };
  }

  private async changed(after: Race, before: Race | undefined): Promise<void> {
    // Saved one after another, each with the races as they are then: the last save holds the last state.
    const races = this.races;
    this.saving = this.saving.then(() => this.store.save(races)).catch((err: unknown) => this.log(`saving the races failed: ${String(err)}`));
    await this.saving;
    this.changedRace.fire(after.id);
    const agents = new Set<string>();
    for (const m of [...after.members, ...(before?.members ?? [])]) if (m.agentId) agents.add(m.agentId);
    if (agents.size > 0) this.changedAgents.fire([...agents]);
  }
}
