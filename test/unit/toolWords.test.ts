/**
 * Every MCP tool Arcadia registers reads on a card like the built-in tool it stands in for
 * ("Reading App.tsx", "Running: npm test"), never as the generic "<tool> (arcadia)": the words its
 * declaration gives (core/toolDeclarations) reach the card under the name the server registers.
 */
import { describe, expect, it } from "vitest";
import { toolLabel } from "../../src/core/labels/toolLabels";
import { ARCADIA_TOOL_PREFIX } from "../../src/core/toolDeclarations";
import { registerArcadiaTools } from "../../src/core/tools";
import type { ToolPorts } from "../../src/core/tools/ports";

/** The tools' names, as the server gets them (the ports are not touched while registering). */
function registeredNames(): string[] {
  const names: string[] = [];
  registerArcadiaTools((spec) => void names.push(spec.name), {} as ToolPorts);
  return names;
}

describe("Arcadia's MCP tools on a card", () => {
  // Those the built-in tools stand beside (a new tool is checked by the next test like these).
  it("registers its file, command and problem tools, each once", () => {
    const names = registeredNames();
    const core = ["apply_diff", "execute_command", "get_diagnostics", "list_files", "open_file", "read_file", "search_files", "write_file"];
    expect(names).toEqual(expect.arrayContaining(core));
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(registeredNames())("%s has words of its own, with and without its input", (name) => {
    const generic = `${name} (arcadia)`;
    expect(toolLabel(`${ARCADIA_TOOL_PREFIX}${name}`, {})).not.toBe(generic);
    expect(toolLabel(`${ARCADIA_TOOL_PREFIX}${name}`, { path: "/w/src/App.tsx", command: "npm test", pattern: "TODO" })).not.toBe(generic);
  });
});
