/** src/core/process: its public face — what the rest of Arcadia may import from it. */
export { ClaudeProcessMonitor } from "./claudeProcessMonitor";
export { linuxProcessGroup } from "./processGroup";
