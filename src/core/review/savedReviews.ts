/**
 * Review threads as saved in the workspace's state, read back after a window reload. What comes
 * back is checked field by field: an entry that does not fit (another version's, a torn write) is
 * dropped alone, never the rest, and reading never throws.
 */
import * as z from "zod/mini";
import type { AgentReview } from "./reviewBook";

const text = z.string();
const lines = z.array(z.string());

function buildSchemas() {
  const note = z.object({ id: text, body: text, at: z.number(), sentAt: z.nullable(z.number()) });
  const thread = z.object({
    id: text,
    file: text,
    anchor: z.object({ line: z.number().check(z.int(), z.nonnegative()), lines: lines.check(z.minLength(1)), before: lines, after: lines }),
    notes: z.array(note).check(z.minLength(1)),
    queued: z.boolean(),
    outcome: z.nullable(z.enum(["addressed", "unaddressed"])),
    resolved: z.boolean(),
  });
  return { thread, review: z.object({ agentId: text, agentName: text, closed: z.boolean(), threads: z.array(z.unknown()) }) };
}

let schemas: ReturnType<typeof buildSchemas> | undefined;

/** The saved reviews that still read as reviews; `dropped` counts threads and agents left out. */
export function readSavedReviews(saved: unknown): { reviews: AgentReview[]; dropped: number } {
  schemas ??= buildSchemas();
  const reviews: AgentReview[] = [];
  let dropped = 0;
  for (const entry of Array.isArray(saved) ? saved : []) {
    const review = schemas.review.safeParse(entry);
    if (!review.success) {
      dropped++;
      continue;
    }
    const threads = review.data.threads.flatMap((t) => {
      const thread = schemas?.thread.safeParse(t);
      if (thread?.success) return [thread.data];
      dropped++;
      return [];
    });
    if (threads.length > 0) reviews.push({ ...review.data, threads });
  }
  return { reviews, dropped };
}
