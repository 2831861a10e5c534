/**
 * Deliberately weakened builds of the walk's records (folderWalks.ts), for the attack tests: each
 * takes out one of the rules that keep a recorded listing from being believed after a change, so
 * that each test first shows its attack working (the test can fail) before Arcadia's holds it.
 */
import type { BigIntStats } from "node:fs";
import { type FolderRecord, FolderWalks } from "../../../../src/core/sandbox";

/** The naive cache: keyed on the path's mtime alone (no ctime, no inode), which a command can set back with `touch -d`. */
export class MtimeWalks extends FolderWalks {
  protected override stampOf(stats: BigIntStats): bigint {
    return stats.mtimeNs;
  }
  protected override believe(recorded: FolderRecord, now: BigIntStats): boolean {
    return recorded.settled && recorded.stamp === now.mtimeNs;
  }
}

/** No same-tick rule: a folder changed in the clock tick it was read in is believed like any other. */
export class NoSameTickRuleWalks extends FolderWalks {
  protected override unsettledFor(): bigint {
    return 0n;
  }
}

/** Nothing re-checked: once read, a folder's listing is believed whatever a command did since (no look at its end). */
export class NothingRecheckedWalks extends FolderWalks {
  protected override believe(): boolean {
    return true;
  }
}
