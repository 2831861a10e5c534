/** src/core/review: its public face — what the rest of Arcadia may import from it. */
export { AnswerWatch } from "./answerWatch";
export { anchorAt, locate, type Located, splitLines } from "./lineAnchor";
export { type AgentReview, type OutgoingThread, ReviewBook, type ReviewThread, threadStatus } from "./reviewBook";
export { reviewMessage } from "./reviewMessage";
export { readSavedReviews } from "./savedReviews";
export { threadLabel } from "./threadLabel";
