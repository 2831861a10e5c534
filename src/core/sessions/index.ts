/** src/core/sessions: its public face — what the rest of Arcadia may import from it. */
export { SessionDigestReader } from "./sessionDigestReader";
export { SessionFigures } from "./sessionFigures";
export { streamSessionDocument } from "./sessionDocument";
export { sessionFolders } from "./sessionFolders";
export { type SessionEntry, SessionIndex } from "./sessionIndex";
export { type TurnSummary } from "./turnHistory";
