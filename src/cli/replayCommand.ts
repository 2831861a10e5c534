/** `arcadia replay <file.jsonl>... [--json]`: what the panel would show for these transcripts. */
import { stat } from "node:fs/promises";
import { type ReplayOptions, replaySessions } from "../core/engine";
import { DEFAULT_MAX_LINE_BYTES } from "../core/transcript";
import { finalJsonLine, stateLine, timelineLine, toolJsonLine } from "./replayFormat";
import { countOf, errorMessage } from "../core/util";

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

/** Checks every file up front so a typo fails at once with one clear line, before any output. */
async function checkReadable(file: string): Promise<string | undefined> {
  try {
    const info = await stat(file);
    if (info.isDirectory()) return `${file} is a folder; pass the .jsonl transcript files inside it`;
    return undefined;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "ENOENT") return `${file}: no such file`;
    if (code === "EACCES") return `${file}: permission denied`;
    return `${file}: cannot read (${code ?? String(err)})`;
  }
}

/** `limits`: the reader's caps, for tests (the command line always uses the defaults). */
export async function replayCommand(
  files: string[],
  json: boolean,
  io: Output,
  limits: Pick<ReplayOptions, "maxLineBytes" | "chunkBytes"> = {},
): Promise<number> {
  if (files.length === 0) {
    io.err("usage: arcadia replay <file.jsonl>... [--json]");
    return 2;
  }
  for (const file of files) {
    const problem = await checkReadable(file);
    if (problem) {
      io.err(`arcadia replay: ${problem}`);
      return 1;
    }
  }
  const labels = new Map<string, string>();
  let currentFile: string | undefined;
  let result;
  try {
    result = await replaySessions(files, {
      ...limits,
      onStep: json
        ? undefined
        : ({ file, events, state }) => {
            if (file !== currentFile) {
              currentFile = file;
              io.out(`== ${file}`);
            }
            for (const event of events) {
              if (event.kind === "toolStart") labels.set(event.id, event.label);
              const line = timelineLine(event, labels);
              if (line) io.out(line);
            }
            if (events.length === 0) io.out(`(idle) ${stateLine(state)}`);
          },
    });
  } catch (err) {
    io.err(`arcadia replay: ${errorMessage(err)}`);
    return 1;
  }
  const { calls, final, stats, warnings } = result;
  for (const warning of warnings) io.err(`arcadia replay: ${warning}`);
  if (json) {
    for (const call of calls) io.out(toolJsonLine(call));
    io.out(finalJsonLine(final));
  } else {
    io.out(
      `== final: ${stateLine(final)}${
        final.activeTools.size
          ? ` (${final.activeTools
              .list()
              .map((t) => t.label)
              .join(", ")})`
          : ""
      }`,
    );
  }
  if (stats.oversized > 0) {
    io.err(
      `arcadia replay: dropped ${countOf(stats.oversized, "line")} over ${sizeText(limits.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES)} unread ` +
        `(a tool whose result was in one ends "unknown": ended, output unknown)`,
    );
  }
  const skipped = stats.malformed + stats.notObject + stats.unknownType;
  if (skipped > 0) {
    io.err(
      `arcadia replay: skipped ${skipped} of ${stats.lines} lines (${stats.malformed} not JSON, ${stats.notObject} not an object, ` +
        `${stats.unknownType} of an unknown type)`,
    );
  }
  return 0;
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${bytes} bytes`;
}
