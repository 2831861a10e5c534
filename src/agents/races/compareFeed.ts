/**
 * One race's compare tab, fed: the tab owns the subscriptions that concern its race (the race
 * itself, its members' figures and checks, their cards, their work, their worktrees whatever changed
 * them — an edit by hand, a `git add` or a commit from a terminal: a check result goes stale, the
 * counts change — and its base branch in the main checkout: a commit there changes every member's
 * merge forecast), made when the tab opens and gone
 * when it closes. While the tab is hidden it does no work for it — no view sent, no figures
 * read — only remembers that something changed; shown again, it reads its figures and sends one view
 * (GitLens pauses its webviews on visibility the same way).
 */
import { type Disposable, DisposableObject, type Event } from "../../core/util";

/** Where a race's news comes from (the race book, its figures, its checks, the cards, the agents). */
export interface RaceNews {
  onDidChangeRace: Event<string>;
  /** A member's figures were read again (the race's id). */
  onDidChangeFigures: Event<string>;
  /** A member's check run changed (`<raceId>/<member>`). */
  onDidChangeCheck: Event<string>;
  /** A card changed or went: what the tab's columns show of it (agent ids). */
  onDidChangeCard: Event<string>;
  /** An agent worked (its turn ended, its worktree changed, it came or went): its figures may have changed. */
  onDidWork: Event<string>;
  /** The race's members' agents now. */
  membersOf(raceId: string): readonly string[];
  /** Follows what the race's merge forecasts depend on in its main checkout (its base branch, HEAD, index) while subscribed. */
  onDidMoveBase(raceId: string, listener: () => void): Disposable;
  /**
   * Follows the race's members' worktrees (their files, index, HEAD, branch) while subscribed: `listener`
   * gets the member whose worktree changed. `asking()`: whether the watch may ask git which changes
   * count (the tab is shown); else each burst is told as it is.
   */
  onDidChangeWorktree(raceId: string, listener: (member: string) => void, asking: () => boolean): Disposable;
}

/** The tab as the feed sees it (VS Code's webview panel, through compareTabs.ts). */
export interface CompareTarget {
  visible(): boolean;
  onDidChangeVisible: Event<boolean>;
  /** Send the race's view now. */
  show(): void;
  /** Read one member's figures again (settled). */
  reread(agentId: string): void;
  /** Read one member's figures now, by its name (its worktree changed; it may have no agent). */
  readMember(member: string): void;
  /** Read every member's figures now (the tab is shown again, or its base branch moved: every forecast may change). */
  readAll(): void;
}

export class CompareFeed extends DisposableObject {
  /** Something changed while the tab was hidden. */
  private stale = false;

  constructor(
    raceId: string,
    news: RaceNews,
    private readonly tab: CompareTarget,
  ) {
    super();
    const member = (agentId: string) => news.membersOf(raceId).includes(agentId);
    const subscriptions: Disposable[] = [
      news.onDidChangeRace((id) => id === raceId && this.changed()),
      news.onDidChangeFigures((id) => id === raceId && this.changed()),
      news.onDidChangeCheck((key) => key.startsWith(`${raceId}/`) && this.changed()),
      news.onDidChangeCard((agentId) => member(agentId) && this.changed()),
      news.onDidWork((agentId) => member(agentId) && this.worked(agentId)),
      news.onDidMoveBase(raceId, () => this.baseMoved()),
      news.onDidChangeWorktree(
        raceId,
        (name) => this.worktreeChanged(name),
        () => this.tab.visible(),
      ),
      tab.onDidChangeVisible((visible) => visible && this.shownAgain()),
    ];
    for (const s of subscriptions) this._register(s);
  }

  private changed(): void {
    if (this.tab.visible()) this.tab.show();
    else this.stale = true;
  }

  private worked(agentId: string): void {
    if (this.tab.visible()) this.tab.reread(agentId);
    else this.stale = true;
  }

  /** Its figures read say what changed (onDidChangeFigures): a check gone stale, new counts. */
  private worktreeChanged(member: string): void {
    if (this.tab.visible()) this.tab.readMember(member);
    else this.stale = true;
  }

  /** The figures read say what changed (onDidChangeFigures): the view is sent then. */
  private baseMoved(): void {
    if (this.tab.visible()) this.tab.readAll();
    else this.stale = true;
  }

  private shownAgain(): void {
    if (!this.stale) return;
    this.stale = false;
    this.tab.readAll();
    this.tab.show();
  }
}
