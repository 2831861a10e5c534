import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";

/** ../shared/fixtures/public beside the project: transcripts published by other projects. */
export const PUBLIC_FIXTURES = resolve(__dirname, "../../../shared/fixtures/public");

export function publicTranscripts(): string[] {
  return readdirSync(PUBLIC_FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(PUBLIC_FIXTURES, d.name))
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => join(PUBLIC_FIXTURES, d.name, f)),
    );
}
