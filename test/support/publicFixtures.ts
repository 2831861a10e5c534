/** The public transcripts tests replay: their folder and every transcript in it. */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";

/** test/fixtures/public: transcripts published by other projects (sources and licences in SOURCES.md). */
export const PUBLIC_FIXTURES = resolve(__dirname, "../fixtures/public");

export function publicTranscripts(): string[] {
  return readdirSync(PUBLIC_FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(PUBLIC_FIXTURES, d.name))
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => join(PUBLIC_FIXTURES, d.name, f)),
    );
}
