/** Nests a card's tool rows under the sub-agent call that owns them, hiding nothing. */
import type { ToolView } from "../../src/shared/protocol";

export interface ToolNode {
  tool: ToolView;
  children: ToolNode[];
}

/**
 * Nests each tool under the tool named by its `parent` (a `Subtask:` row). A tool whose parent is
 * not in the list stays at the top level, so nothing is ever hidden; order within a level is kept.
 */
export function buildToolTree(tools: readonly ToolView[]): ToolNode[] {
  const nodes = new Map<string, ToolNode>();
  for (const tool of tools) if (!nodes.has(tool.id)) nodes.set(tool.id, { tool, children: [] });
  const roots: ToolNode[] = [];
  for (const node of nodes.values()) {
    const parentId = node.tool.parent;
    const parent = parentId !== null && parentId !== node.tool.id ? nodes.get(parentId) : undefined;
    if (parent && !isAncestor(node, parent, nodes)) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

// Guards against a parent cycle in malformed data, which would otherwise drop both tools.
function isAncestor(node: ToolNode, candidate: ToolNode, nodes: Map<string, ToolNode>): boolean {
  const seen = new Set<string>();
  for (let at: ToolNode | undefined = candidate; at;) {
    if (at === node) return true;
    if (seen.has(at.tool.id)) return true;
    seen.add(at.tool.id);
    const p: string | null = at.tool.parent;
    at = p === null ? undefined : nodes.get(p);
  }
  return false;
}
