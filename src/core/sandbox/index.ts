/** Commands confined by the operating system (bubblewrap on Linux): what execute_command runs unasked runs here. */
export {
  BubblewrapSandbox,
  writableFolders,
  type CommandSandbox,
  type SandboxFolders,
  type SandboxLaunch,
  type SandboxMode,
  type SandboxSettings,
} from "./commandSandbox";
export type { SandboxAvailability } from "./bubblewrap";
export { StandIns, standIns } from "./standIns";
export { FolderWalks, folderWalks, type FolderListing, type FolderRecord } from "./folderWalks";
export { bwrapArguments, orderedMounts, SECCOMP_FD } from "./bwrapArguments";
export { LIMITS, limitMessage, limitsInWords } from "./limits";
export { unixSocketFilter } from "./unixSocketFilter";
export { seccompDescriptor } from "./seccompDescriptor";
export { leftBehind, type LeftBehind } from "./leftBehind";
export { insideUser, layoutFromDisk, UNPRIVILEGED, type SandboxRequest } from "./layoutFromDisk";
export { checkSandbox, type CheckPlace } from "./checkSandbox";
