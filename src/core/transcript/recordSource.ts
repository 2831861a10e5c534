/** Where a transcript record came from: the session's main file, or a sub-agent's file (with the call that owns it). */
export type RecordSource = { kind: "main" } | { kind: "subagent"; agentId: string; parentToolId: string | null; prompt?: string };

export const MAIN: RecordSource = { kind: "main" };
