/** src/core/queue: its public face — what the rest of Arcadia may import from it. */
export {
  addTasks,
  agentLaunched,
  agentNotBack,
  agentNeedsYou,
  agentWorking,
  aboutToType,
  beginStart,
  cancelTask,
  clampParallel,
  holdsSlot,
  holdTask,
  isFinished,
  markDone,
  moveTask,
  newQueue,
  type NewTask,
  pauseQueue,
  resumeQueue,
  resumeTask,
  retryTask,
  setParallel,
  setupFinished,
  slotsTaken,
  taskFailed,
  taskLabel,
  taskOf,
  turnEnded,
} from "./queue";
export { againModels, againQueueProblem, againTask, type AgainSource } from "./againTask";
export { readQueue, type ReadQueue, serializeQueue } from "./queueRecords";
export { CONTINUED, restoreQueue, TYPING_CUT, type Restored, type Resume, sessionReopened, type TaskFacts } from "./queueRestore";
export { nextStart, type NextStart, queueHold, queueSummary, type StartGates } from "./queueSchedule";
export {
  DEFAULT_PARALLEL,
  type EarlierAttempt,
  FINISHED_STATES,
  MAX_PARALLEL,
  MIN_PARALLEL,
  type Queue,
  type QueueTask,
  SLOT_STATES,
  type TaskStart,
  type TaskState,
} from "./queueTypes";
export { tasksFromTaskList } from "./taskList";
export { draftProblemLine, type TaskDraft, tasksFromParagraphs, type TaskSourceRead } from "./taskSources";
export { MAX_TASK_FILE_BYTES, openProblem, readTaskFile, type TaskFileRead } from "./taskFile";
export { DEFAULT_SETUP_TIMEOUT_S, outputTail, readRepoSetupFile, type SetupEnd, setupFailure, setupTimeoutMs } from "./setupRun";
export {
  MAX_ANSWERS_PER_REPO,
  MAX_SETUP_FILE_BYTES,
  readAnswers,
  rememberAnswer,
  REPO_SETUP_FILE,
  type RepoSetupFile,
  type SetupAnswer,
  type SetupAnswers,
  setupArgv,
  setupHash,
  type SetupInputs,
  type SetupPlan,
  setupPlan,
  shownSetup,
} from "./setupTrust";
export { gitMergeSimulator } from "./landingGit";
export { type Landable, type LandingPlan, landingPlan, type MergeSimulator, type SimulatedMerge } from "./landingOrder";
export { baseGoneHold, baseTip, taskWorktreeName, workCommitted } from "./queueDisk";
