import { expect, it } from "vitest";
import { buildToolTree, type ToolNode } from "../src/toolTree";
import { tool } from "./helpers";

const shape = (nodes: ToolNode[]): unknown => nodes.map((n) => (n.children.length ? { [n.tool.id]: shape(n.children) } : n.tool.id));

it("nests tools under their parent, at any depth, keeping order", () => {
  const tree = buildToolTree([
    tool({ id: "a" }),
    tool({ id: "task", label: "Subtask: explore" }),
    tool({ id: "b", parent: "task" }),
    tool({ id: "inner", parent: "task" }),
    tool({ id: "c", parent: "inner" }),
    tool({ id: "d" }),
  ]);
  expect(shape(tree)).toEqual(["a", { task: ["b", { inner: ["c"] }] }, "d"]);
});

it("keeps a tool whose parent is missing, and survives a parent cycle", () => {
  expect(shape(buildToolTree([tool({ id: "x", parent: "gone" })]))).toEqual(["x"]);
  const cyclic = buildToolTree([tool({ id: "p", parent: "q" }), tool({ id: "q", parent: "p" })]);
  const ids = JSON.stringify(shape(cyclic));
  expect(ids).toContain("p");
  expect(ids).toContain("q");
});
