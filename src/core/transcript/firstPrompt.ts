/**
 * The first thing the user asked in a session (what its merge commit is proposed from, and what a
 * session is titled by): the first real prompt the interpreter sees — not a slash command, a meta
 * or compact-summary record — read from the start in small chunks and never past `maxRecords`.
 */
import { TranscriptInterpreter } from "./interpreter";
import { newLineStats } from "./parseLine";
import { RecordStream } from "./recordStream";
import { oneLine } from "../util";

const CHUNK_BYTES = 64 * 1024;

/** The prompt's text, whitespace collapsed, cut at `maxChars` with "…"; undefined when there is none (or no file). */
export async function firstPrompt(transcriptPath: string, maxChars = 72, maxRecords = 2000): Promise<string | undefined> {
  const stream = new RecordStream(transcriptPath, newLineStats(), CHUNK_BYTES);
  const interpreter = new TranscriptInterpreter();
  try {
    for (let i = 0; i < maxRecords; i++) {
      const record = await stream.next();
      if (record === undefined) return undefined;
      for (const event of interpreter.handle(record)) {
        if (event.kind !== "prompt" || event.source !== "user") continue;
        const text = oneLine(event.text, maxChars);
        if (text) return text;
      }
    }
    return undefined;
  } catch {
    // Unreadable (gone, a folder, no permission): no proposal, the user types one.
    return undefined;
  }
}
