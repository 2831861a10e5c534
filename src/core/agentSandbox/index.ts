/**
 * src/core/agentSandbox: Claude Code's own sandbox for the agents Arcadia launches (their Bash tool):
 * the settings written, what the user's own say, where it runs, how a row and a prompt show it.
 */
export { agentSandboxSettings, type AgentSandboxChoice, type AgentSandboxInput, type CliSandboxSettings } from "./agentSandboxSettings";
export { claudeSettingsFiles, readUserSandboxSettings, userSandboxFromTexts, type UserSandboxSettings } from "./userSandboxSettings";
export { agentSandboxAvailability, type AgentSandboxAvailability, type FoundPrograms } from "./sandboxAvailability";
export { leaveSandboxReason, sandboxMark, type SandboxMark, type SandboxRow } from "./sandboxMark";
export { toolchainFolders } from "./toolchainFolders";
