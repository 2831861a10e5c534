/**
 * A compare tab owns what it follows of its race, and does no work while hidden: a change of its
 * race, a member's card, figures or check is sent to it when shown; a member's work has its figures
 * read again, and every member's when its base branch moves, and one member's when its worktree
 * changes (its name: it may have no agent); hidden, nothing is read or sent until
 * it is shown again, then once; closed, it follows nothing (its subscriptions are gone).
 */
import { describe, expect, it } from "vitest";
import { CompareFeed, type CompareTarget, type RaceNews } from "../../../src/agents/races/compareFeed";
import { Emitter, liveEmitterSubscriptions } from "../../../src/core/util/emitter";

function setUp() {
  const race = new Emitter<string>();
  const figures = new Emitter<string>();
  const checks = new Emitter<string>();
  const cards = new Emitter<string>();
  const work = new Emitter<string>();
  const visibility = new Emitter<boolean>();
  const base = new Emitter<string>();
  const worktree = new Emitter<{ raceId: string; member: string }>();
  /** Whether the worktree watch was told it may ask git (the tab is shown), at each change. */
  const asked: boolean[] = [];
  const news: RaceNews = {
    onDidChangeRace: race.event,
    onDidChangeFigures: figures.event,
    onDidChangeCheck: checks.event,
    onDidChangeCard: cards.event,
    onDidWork: work.event,
    membersOf: (id) => (id === "r1" ? ["a1", "a2"] : ["b1"]),
    onDidMoveBase: (id, listener) => base.event((moved) => moved === id && listener()),
    onDidChangeWorktree: (id, listener, asking) =>
      worktree.event((e) => {
        if (e.raceId !== id) return;
        asked.push(asking());
        listener(e.member);
      }),
  };
  const did: string[] = [];
  let visible = true;
  const tab: CompareTarget = {
    visible: () => visible,
    onDidChangeVisible: visibility.event,
    show: () => did.push("show"),
    reread: (agentId) => did.push(`reread ${agentId}`),
    readAll: () => did.push("readAll"),
    readMember: (member) => did.push(`readMember ${member}`),
  };
  const setVisible = (v: boolean) => ((visible = v), visibility.fire(v));
  return { race, figures, checks, cards, work, base, worktree, asked, news, tab, did, setVisible };
}

describe("a race's compare tab, fed", () => {
  it("shown: its race's changes are sent, its members' work re-reads their figures; other races' are not", () => {
    const s = setUp();
    const feed = new CompareFeed("r1", s.news, s.tab);
    s.race.fire("r1");
    s.figures.fire("r1");
    s.checks.fire("r1/claude-1");
    s.cards.fire("a2");
    s.work.fire("a1");
    expect(s.did).toEqual(["show", "show", "show", "show", "reread a1"]);
    s.did.length = 0;
    s.race.fire("r2");
    s.figures.fire("r2");
    s.checks.fire("r2/claude-1");
    s.cards.fire("b1");
    s.work.fire("b1");
    expect(s.did).toEqual([]);
    feed.dispose();
  });

  it("hidden: nothing is read or sent; shown again, its figures are read and one view sent; shown with nothing new, nothing", () => {
    const s = setUp();
    const feed = new CompareFeed("r1", s.news, s.tab);
    s.setVisible(false);
    for (let i = 0; i < 20; i++) {
      s.cards.fire("a1");
      s.work.fire("a2");
      s.figures.fire("r1");
    }
    expect(s.did).toEqual([]);
    s.setVisible(true);
    expect(s.did).toEqual(["readAll", "show"]);
    s.setVisible(false);
    s.setVisible(true);
    expect(s.did).toEqual(["readAll", "show"]);
    feed.dispose();
  });

  it("its base branch moved: every member's figures are read again when shown; hidden, once it is shown again", () => {
    const s = setUp();
    const feed = new CompareFeed("r1", s.news, s.tab);
    s.base.fire("r2");
    expect(s.did).toEqual([]);
    s.base.fire("r1");
    expect(s.did).toEqual(["readAll"]);
    s.did.length = 0;
    s.setVisible(false);
    s.base.fire("r1");
    expect(s.did).toEqual([]);
    s.setVisible(true);
    expect(s.did).toEqual(["readAll", "show"]);
    feed.dispose();
  });

  it("a member's worktree changed (whatever changed it): that member is read now, by its name; hidden, once it is shown again", () => {
    const s = setUp();
    const feed = new CompareFeed("r1", s.news, s.tab);
    s.worktree.fire({ raceId: "r2", member: "fix-1" });
    expect(s.did).toEqual([]);
    s.worktree.fire({ raceId: "r1", member: "fix-2" });
    expect(s.did).toEqual(["readMember fix-2"]);
    s.did.length = 0;
    s.setVisible(false);
    s.worktree.fire({ raceId: "r1", member: "fix-1" });
    expect(s.did).toEqual([]);
    expect(s.asked).toEqual([true, false]);
    s.setVisible(true);
    expect(s.did).toEqual(["readAll", "show"]);
    feed.dispose();
  });

  it("closed: it follows nothing any more", () => {
    const s = setUp();
    const before = liveEmitterSubscriptions();
    const feed = new CompareFeed("r1", s.news, s.tab);
    expect(liveEmitterSubscriptions()).toBeGreaterThan(before);
    feed.dispose();
    expect(liveEmitterSubscriptions()).toBe(before);
    s.race.fire("r1");
    s.work.fire("a1");
    s.base.fire("r1");
    s.worktree.fire({ raceId: "r1", member: "fix-1" });
    expect(s.did).toEqual([]);
  });
});
