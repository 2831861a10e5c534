/** src/core/hooks: its public face — what the rest of Arcadia may import from it. */
export { writeHookSettingsFile } from "./hookSettingsFile";
export { type HookTool, HookToolFeed } from "./hookToolFeed";
export { PermissionBroker } from "./permissionBroker";
export { isSideQuery } from "./sideQuery";
