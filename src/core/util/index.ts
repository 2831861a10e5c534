/** src/core/util: its public face — what the rest of Arcadia may import from it. */
export { KB, MB } from "./bytes";
export { type Clock, ManualClock, monotonicClock, systemClock, type TimerHandle } from "./clock";
export { type Disposable, DisposableStore, Emitter, type Event } from "./emitter";
export { errorMessage } from "./errorMessage";
export { chokidarFolderWatch, folderEntriesWatch, noWatch, sessionFilesWatch, type WatchFactory } from "./fileWatch";
export { latch } from "./latch";
export { combinedDisposable, DisposableMap, DisposableObject } from "./lifecycle";
export { mtimeSaysChanged } from "./mtime";
export { oneLine } from "./oneLine";
export { isInside } from "./pathInside";
export { isPlainWord, posixQuote } from "./posixQuote";
export { realpathAllowingMissing } from "./realpathAllowingMissing";
export { RecentMap } from "./recentMap";
export { type SafetyPoll, safetyPollFor } from "./safetyPoll";
export { SettledRuns } from "./settledRuns";
export { sliced } from "./sliced";
export { visibleText } from "./visibleText";
export { WatchedFolder } from "./watchedFolder";
