/**
 * One of Arcadia's MCP tools, declared once: what the agent is told (name, title, description, the
 * input schema), how a call reads on a card (its words), what Complete on the panel does, and which
 * input field names the file it writes. Its handler (core/tools/<tool>.ts, through implement.ts) does
 * what it says; the server's registration, the card's rows (core/labels/toolLabels.ts), the
 * tracker's Complete and the collision guard all read it from here.
 *
 * A declaration loads without zod, the MCP SDK or any handler: the card's words are made in
 * dist/extension.js (at activation) and dist/cli.js, which carry none of them (test/unit/bundles.test.ts).
 * Hence the schema is built from the zod the server hands in, and the words are data, not code.
 */
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { CompleteBehaviour } from "../mcp";

export type InputShape = z.ZodRawShape;
/** A call's arguments, once the server has checked them against the shape. */
export type ToolArgs<S extends InputShape> = z.infer<z.ZodObject<S>>;
/** The checked arguments of a declared tool's calls. */
export type ArgsOf<T> = T extends ArcadiaTool<string, infer S> ? ToolArgs<S> : never;

/**
 * How a call reads on a card, as the built-in tool it stands in for: "Reading App.tsx" while it
 * runs or once done, the bare deed "read App.tsx" after a verdict ("Denied: read App.tsx"); a
 * command's finished row is its deed alone (`endsAsDeed`).
 * core/labels/toolLabels.ts makes the words (a file's name only, a text's first line cut at 60
 * characters) from the call's input as the transcript wrote it, unchecked.
 */
export interface CallWords<K extends string> {
  /** Put before what the call is about: "Reading ", "Running: ". */
  readonly label: string;
  /** The same after a verdict: "read ", "" (a command is its own deed). */
  readonly action: string;
  /**
   * The input field the call is about: a file (its name is shown) or a text (its first line).
   * Absent for a tool about nothing in particular (it takes no input): it always reads as `otherwise`.
   */
  readonly of?: { readonly file: K } | { readonly text: K };
  /** Both forms when the input lacks that field (or the tool has none): "Reading a file", "read a file". */
  readonly otherwise: { readonly label: string; readonly action: string };
  /** Once it ran, the row reads as the bare deed, not the label: "npm test" ✓, never "Running: npm test" ✓. */
  readonly endsAsDeed?: true;
}

export interface ArcadiaTool<N extends string = string, S extends InputShape = InputShape> {
  /** The MCP name; the CLI's transcript calls it `mcp__arcadia__<name>` (./serverName.ts). */
  readonly name: N;
  readonly title: string;
  readonly description: string;
  /** The input shape, from the zod the server hands in. */
  readonly input: (zod: typeof z) => S;
  readonly annotations?: ToolAnnotations;
  readonly words: CallWords<keyof S & string>;
  /** A one-line description of a call for the panel's live call, e.g. the command. */
  display(args: ToolArgs<S>): string;
  /** Complete on the panel for a call of this tool, with its hint. Without it: like Cancel. */
  readonly complete?: CompleteBehaviour;
  /** The input field naming the file a call writes (the collision guard, a session's edited files). */
  readonly writes?: keyof S & string;
}

/** What the card and the collision guard read of any declared tool, whatever its input shape. */
export type DeclaredTool = Pick<ArcadiaTool, "name" | "title" | "words" | "complete" | "writes">;

/** Only for the types: the name stays a literal, the shape types the words, display and handler. */
export function defineArcadiaTool<const N extends string, S extends InputShape>(tool: ArcadiaTool<N, S>): ArcadiaTool<N, S> {
  return tool;
}
