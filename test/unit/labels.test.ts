import { describe, expect, it } from "vitest";
import { toolLabel } from "../../src/core/labels/toolLabels";

describe("toolLabel", () => {
  it.each([
    ["Read", { file_path: "/repo/src/App.tsx" }, "Reading App.tsx"],
    ["Read", { file_path: "C:\\repo\\src\\App.tsx" }, "Reading App.tsx"],
    ["Edit", { file_path: "/repo/src/App.tsx" }, "Editing App.tsx"],
    ["MultiEdit", { file_path: "/repo/a.py" }, "Editing a.py"],
    ["Write", { file_path: "/repo/new.md" }, "Writing new.md"],
    ["Bash", { command: "npm test" }, "Running: npm test"],
    ["Bash", { command: "npm run build\nnpm test" }, "Running: npm run build"],
    ["Bash", { command: "  npm run build\r\nnpm test" }, "Running: npm run build"],
    ["Bash", { command: "echo a\rb" }, "Running: echo a\rb"],
    ["Grep", { pattern: "TODO\\(" }, "Searching code: TODO\\("],
    ["Glob", { pattern: "**/*.ts" }, "Searching files: **/*.ts"],
    ["WebFetch", { url: "https://docs.example.com/a/b?c=1" }, "Fetching docs.example.com"],
    ["WebSearch", { query: "vitest fake timers" }, "Searching the web: vitest fake timers"],
    ["Agent", { description: "Find the bug", prompt: "…" }, "Subtask: Find the bug"],
    ["Task", { description: "Old name", prompt: "…" }, "Subtask: Old name"],
    ["AskUserQuestion", { questions: [] }, "Waiting for your answer"],
    // Arcadia's own tools read like the built-ins they stand in for.
    ["mcp__arcadia__execute_command", { command: "ls" }, "Running: ls"],
    ["mcp__arcadia__read_file", { path: "src/App.tsx" }, "Reading App.tsx"],
    ["mcp__arcadia__apply_diff", { path: "/w/a.ts", edits: [] }, "Editing a.ts"],
    ["mcp__arcadia__get_diagnostics", {}, "Checking problems"],
    ["mcp__arcadia__new_tool", {}, "new_tool (arcadia)"],
    ["mcp__my_server__do__thing", {}, "do__thing (my_server)"],
    ["TodoWrite", { todos: [] }, "Using TodoWrite"],
  ])("%s %j → %s", (name, input, expected) => {
    expect(toolLabel(name, input)).toBe(expected);
  });

  it("cuts a long command at 60 characters with an ellipsis", () => {
    const command = `echo ${"x".repeat(100)}`;
    const label = toolLabel("Bash", { command });
    expect(label).toBe(`Running: ${command.slice(0, 60)}…`);
  });

  it("keeps a command of exactly 60 characters whole, and cuts emoji whole, never in half", () => {
    const sixty = `echo ${"y".repeat(55)}`;
    expect(toolLabel("Bash", { command: sixty })).toBe(`Running: ${sixty}`);
    const emoji = "😀".repeat(61);
    expect(toolLabel("Bash", { command: emoji })).toBe(`Running: ${"😀".repeat(60)}…`);
    // 40 emoji are 80 UTF-16 units but 40 characters: not cut.
    expect(toolLabel("Bash", { command: "😀".repeat(40) })).toBe(`Running: ${"😀".repeat(40)}`);
  });

  it("keeps labels as plain text, whatever the input contains", () => {
    expect(toolLabel("Bash", { command: "<img src=x onerror=alert(1)>" })).toBe("Running: <img src=x onerror=alert(1)>");
  });

  it("survives inputs of the wrong shape", () => {
    expect(toolLabel("Read", null)).toBe("Reading a file");
    expect(toolLabel("Bash", { command: 42 })).toBe("Running a command");
    expect(toolLabel("Agent", "not an object")).toBe("Subtask");
  });
});
