/** src/core/launch: its public face — what the rest of Arcadia may import from it. */
export { type LaunchRequest, parseLaunchRequest } from "./launchRequest";
export { typedTextProblem } from "./typedText";
export { MODEL_ALIASES, modelNameProblem } from "./modelName";
