/** src/core/engine: its public face — what the rest of Arcadia may import from it. */
export { ProjectFolderWatcher } from "./projectFolderWatcher";
export { type ReplayOptions, replaySessions } from "./replay";
export { type FollowerOptions, SessionFollower } from "./sessionFollower";
export { TurnLog } from "./turnLog";
export type { TranscriptRead } from "./transcriptRead";
