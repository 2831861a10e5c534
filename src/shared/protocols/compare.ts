/**
 * A race's compare tab's protocol (an editor tab per race, page `compare`): it asks for its race
 * and acts on its members; the extension pushes the race's columns whenever something in them
 * changed. Its host (vscode/races/compareTabs.ts) accepts these messages only, about its own race.
 */
import * as z from "zod/mini";
import type { RaceCompareView } from "../raceViews";
import type { PageDefinition, PageHandlers, PageMessage } from "./pageProtocol";
import { boundedId, type Holds, lazyPageParser, pageMessage, type SameMessages } from "./pageSchema";

export type CompareRequests = {
  /** The page listens for its race and asks for it as it is now (its figures are read again: pushes follow). */
  compareReady: [{ raceId: string }, ComparePush];
  /**
   * A column's action on its member: review its changes, ask a follow-up, pick it, show its terminal
   * or its check's output, or queue its task again on another model.
   */
  compareAction: [{ raceId: string; member: string; action: "review" | "followUp" | "pick" | "focus" | "checkOutput" | "again" | "retry" }, void];
  /** Two members' work against each other in the multi-file diff editor. */
  compareDiff: [{ raceId: string; left: string; right: string }, void];
  /** Run the check command (arcadia.compare.check) in every member's worktree. */
  runChecks: [{ raceId: string }, void];
  /** Cap this race at… / Raise… (asks for the race's cap: all its agents together). */
  capRace: [{ raceId: string }, void];
};

export type ComparePush =
  /** The race as it is now (its columns; null: no such race any more). */
  { type: "compareState"; race: RaceCompareView | null };

export type CompareProtocol = { requests: CompareRequests; push: ComparePush };

export type CompareMessage = PageMessage<CompareRequests>;

export type CompareHandlers = PageHandlers<CompareRequests>;

function buildCompareSchema() {
  const id = boundedId();
  return z.discriminatedUnion("type", [
    pageMessage("compareReady", { raceId: id }),
    pageMessage("compareAction", { raceId: id, member: id, action: z.enum(["review", "followUp", "pick", "focus", "checkOutput", "again", "retry"]) }),
    pageMessage("compareDiff", { raceId: id, left: id, right: id }),
    pageMessage("runChecks", { raceId: id }),
    pageMessage("capRace", { raceId: id }),
  ]);
}

// The schema and the map hold the same messages: one added to either alone fails to compile.
type _SchemaMatchesMap = Holds<SameMessages<z.infer<ReturnType<typeof buildCompareSchema>>, CompareMessage>>;

export const COMPARE_PAGE: PageDefinition<CompareProtocol> = {
  view: "compare",
  name: "compare tab",
  parse: lazyPageParser<CompareMessage>(buildCompareSchema),
};
