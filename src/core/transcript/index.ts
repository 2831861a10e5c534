/** src/core/transcript: its public face — what the rest of Arcadia may import from it. */
export { startsWithClear } from "./clearStart";
export { type TokenUsage, TOOL_OUTCOMES, type ToolOutcome, type TranscriptEvent } from "./events";
export { TAIL_BYTES } from "./fileFingerprint";
export { firstPrompt } from "./firstPrompt";
export { MAIN, type RecordSource, TranscriptInterpreter } from "./interpreter";
export { DEFAULT_MAX_LINE_BYTES, isNotFound, LineReader } from "./lineReader";
export { type LineStats, newLineStats, parseLine, withoutBom } from "./parseLine";
export { claudeConfigDir, projectDirFor, projectsRoot, transcriptPath } from "./projectDir";
export { asArray, asNumber, asString, contentText, isObject, type Json, tagValue, timestampOf } from "./recordShapes";
export { RecordStream } from "./recordStream";
export { SessionEdits } from "./sessionEdits";
export { isSessionId } from "./sessionId";
export { agentIdOfFile, findSubagentFiles, readSubagentMeta, sessionIdOf, subagentDirOf, unreadableReason } from "./subagentFiles";
export { isAsyncLaunch } from "./toolOutcome";
