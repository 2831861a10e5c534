/** src/core/labels: its public face — what the rest of Arcadia may import from it. */
export { isSubagentTool, labelOnceRan, rowLabel, toolWords } from "./toolLabels";
