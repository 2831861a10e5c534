/**
 * What the compare tab shows of each race member, read from git and its transcripts and kept
 * until read again: whether its worktree and branch are still there, its changes and merge
 * forecast (core/races/memberChanges.ts), its sessions' turns, time and cost
 * (core/races/folderSessions.ts). Read when a compare tab opens, again, settled, as its agent
 * works, and at once when its worktree changes whatever changed it (memberWatch.ts); in child
 * processes (git) and by what transcripts gained, never blocking the window.
 */
import { isDeepStrictEqual } from "node:util";
import type { FolderFigures, MemberChanges } from "../../core/races";
import { memberBranch, memberPath, type Race, type RaceMember } from "../../core/races";
import { DisposableObject, Emitter, errorMessage, SettledRuns } from "../../core/util";

export interface MemberFigures {
  worktree: boolean;
  branch: boolean;
  changes?: MemberChanges;
  sessions?: FolderFigures;
  problem?: string;
}

export interface RaceFiguresDeps {
  memberChanges(repo: string, worktree: string, base: string): Promise<MemberChanges>;
  /** The sessions of a worktree's project folder, read incrementally (one reader per worktree, kept). */
  sessionsOf(worktree: string): { read(): Promise<FolderFigures> };
  worktreeExists(path: string): boolean;
  branchExists(repo: string, branch: string): Promise<boolean>;
  log(message: string): void;
  /** Quiet time before a requested read (ms). */
  settleMs?: number;
}

const keyOf = (race: Race, member: RaceMember) => `${race.id}/${member.name}`;

export class RaceFigures extends DisposableObject {
  private readonly figures = new Map<string, MemberFigures>();
  private readonly readers = new Map<string, { read(): Promise<FolderFigures> }>();
  private readonly runs: SettledRuns;
  private readonly changed = this._register(new Emitter<string>());
  /** A race's figures changed (by race id). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly deps: RaceFiguresDeps) {
    super();
    this.runs = this._register(new SettledRuns(deps.settleMs ?? 500));
  }

  of(race: Race, member: RaceMember): MemberFigures | undefined {
    return this.figures.get(keyOf(race, member));
  }

  /** Reads every member now; resolves once all are read. */
  async readNow(race: Race): Promise<void> {
    await Promise.all(race.members.map((m) => this.runs.now(keyOf(race, m), () => this.read(race, m))));
  }

  /** Reads one member now (its worktree changed, its watch says): never two reads of it at once, one more after the running one. */
  readOne(race: Race, member: RaceMember): Promise<void> {
    return this.runs.now(keyOf(race, member), () => this.read(race, member));
  }

  /** Reads a member again once things settle (its agent worked). */
  request(race: Race, member: RaceMember): void {
    this.runs.request(keyOf(race, member), () => this.read(race, member));
  }

  private async read(race: Race, member: RaceMember): Promise<void> {
    const path = memberPath(race, member);
    const next: MemberFigures = { worktree: this.deps.worktreeExists(path), branch: false };
    try {
      next.branch = await this.deps.branchExists(race.repo, memberBranch(member));
      if (next.worktree) next.changes = await this.deps.memberChanges(race.repo, path, race.base);
      let reader = this.readers.get(path);
      if (!reader) this.readers.set(path, (reader = this.deps.sessionsOf(path)));
      next.sessions = await reader.read();
    } catch (err) {
      next.problem = errorMessage(err);
      this.deps.log(`race ${race.task}, ${member.name}: ${next.problem}`);
    }
    const key = keyOf(race, member);
    if (isDeepStrictEqual(this.figures.get(key), next)) return;
    this.figures.set(key, next);
    this.changed.fire(race.id);
  }
}
