/**
 * What a race member's agent has done, from every session in its worktree's project folder (a
 * worktree made for the race holds only its own sessions: /clear, a restart or a resume add files
 * there and all of them count): turns, time spent working, tokens and their estimated cost. Read
 * by what each transcript gained since the last read (SessionDigestReader), so a live agent costs
 * little, and from the files alone after a restart of VS Code.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { SessionDigestReader } from "../sessions";
import { estimateCost, type TokenCounts, totalTokens, type UsageTotals, zeroCounts } from "../usage";

export interface FolderFigures {
  sessions: number;
  turns: number;
  activeMs: number;
  tokens: TokenCounts;
  /** USD, estimated; models the price table does not know are left out (named in unpricedModels). */
  costUsd: number;
  unpricedModels: string[];
}

/** Sessions read per folder at most (each holds a reader). */
const MAX_SESSIONS = 100;

export class FolderSessions {
  private readonly readers = new Map<string, SessionDigestReader>();

  constructor(
    readonly projectDir: string,
    private readonly cwd?: string,
  ) {}

  /** Reads what the folder's transcripts gained, and sums them. */
  async read(): Promise<FolderFigures> {
    for (const file of await this.transcripts()) {
      if (this.readers.has(file) || this.readers.size >= MAX_SESSIONS) continue;
      this.readers.set(file, new SessionDigestReader(file, { cwd: this.cwd, maxBytesPerRead: 256 * 1024 }));
    }
    const byModel: UsageTotals["byModel"] = {};
    let turns = 0;
    let activeMs = 0;
    for (const reader of this.readers.values()) {
      await reader.advance();
      const digest = reader.current.digest();
      turns += digest.turns;
      activeMs += digest.activeMs;
      for (const [model, counts] of Object.entries(digest.usage.byModel)) {
        const sum = (byModel[model] ??= zeroCounts());
        for (const key of Object.keys(sum) as (keyof TokenCounts)[]) sum[key] += counts[key];
      }
    }
    const usage = { byModel };
    const cost = estimateCost(usage);
    return { sessions: this.readers.size, turns, activeMs, tokens: totalTokens(usage), costUsd: cost.usd, unpricedModels: cost.unpricedModels };
  }

  private async transcripts(): Promise<string[]> {
    try {
      const names = await readdir(this.projectDir);
      return names
        .filter((n) => n.endsWith(".jsonl"))
        .sort()
        .map((n) => join(this.projectDir, n));
    } catch {
      // No session there yet.
      return [];
    }
  }
}
