/** How a tool's result names a path: relative to the agent's folder when inside it, else absolute. */
import { isAbsolute, relative } from "node:path";
import { baseFolder } from "./paths";
import type { ToolPorts } from "./ports";

/** A path as results show it: relative to the agent's folder when inside it, else absolute. */
export function shownPath(ports: ToolPorts, agentId: string | undefined, path: string): string {
  const base = baseFolder(ports, agentId);
  if (base === undefined) return path;
  const rel = relative(base, path);
  return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? path : rel.split("\\").join("/");
}
