/** src/core/races: its public face — what the rest of Arcadia may import from it. */
export { type CheckRunner, CheckRuns } from "./checkRuns";
export { type FolderFigures, FolderSessions } from "./folderSessions";
export { type MemberChanges, memberChanges } from "./memberChanges";
export {
  type CheckResult,
  MAX_MEMBERS,
  memberAsked,
  memberBranch,
  memberNotStarted,
  type MemberFacts,
  memberPath,
  memberStarted,
  MIN_MEMBERS,
  phaseOf,
  picked,
  pickProblem,
  type Race,
  type RaceMember,
  raceOfAgent,
  raceOfWorktree,
  recordCheck,
  removalOffers,
  retryProblem,
  startRace,
} from "./race";
export { branchExists, commitWork, startingPoint, takenWorktreeNames } from "./raceDisk";
export { freeTaskName, taskNameFrom } from "./raceNames";
export { parseRaces } from "./raceRecords";
export { type MemberNow, type MemberResume, raceMayResume, raceResumes } from "./raceResume";
