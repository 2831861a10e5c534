/** Arcadia's command line: `arcadia replay <file.jsonl>... [--json]`. */
import { parseArgs } from "node:util";
import { replayCommand } from "./cli/replayCommand";
import { errorMessage } from "./core/util";

const USAGE = `usage: arcadia replay <file.jsonl>... [--json]

  Runs Claude Code transcripts through Arcadia's engine and prints what the panel would show.
  Several files are consecutive sessions of one agent (before and after /clear).
  --json   one JSON line per tool call, then a final state line`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h") {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== "replay") {
    console.error(`arcadia: unknown command "${command}"\n${USAGE}`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: { json: { type: "boolean" } }, allowPositionals: true });
  } catch (err) {
    console.error(`arcadia replay: ${errorMessage(err)}`);
    return 2;
  }
  return replayCommand(parsed.positionals, parsed.values.json === true, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`arcadia: ${errorMessage(err)}`);
    process.exitCode = 1;
  },
);
