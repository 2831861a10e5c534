/**
 * Attack class: an agent lowering its own spend by rewriting its transcript. Its Bash and Edit
 * tools can reach `~/.claude/projects/…/<session>.jsonl`, the file its cost is priced from: emptied
 * or rewritten with smaller usage, a reader that trusted it would price the session lower and lift
 * the pause. The budget keeps the most it has seen a session spend (and a day): a spend never goes
 * down. Against a weakened book (the figure as read now): the pause lifted after the rewrite.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BudgetBook } from "../../../src/agents/budget/budgetBook";
import { SessionCards } from "../../../src/agents/sessions/sessionCards";
import { readInto } from "../../support/sessionReads";
import { localDay } from "../../../src/core/usage";
import { useTempDirs } from "../../support/tempDir";
import { waitForChange } from "../../support/waitFor";

const tempDir = useTempDirs();
const owned: { dispose(): void }[] = [];
afterEach(() => owned.splice(0).forEach((d) => d.dispose()));

const reply = (id: string, output: number) =>
  `${JSON.stringify({
    type: "assistant",
    timestamp: new Date().toISOString(),
    uuid: id,
    message: {
      id: `msg_${id}`,
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [{ type: "text", text: "ok" }],
      usage: { input_tokens: 0, output_tokens: output },
    },
  })}\n`;

describe("an agent rewriting its own transcript", () => {
  it.each([
    ["emptied", ""],
    ["rewritten with a cheaper reply", reply("cheap", 10)],
  ])("%s: stays paused", async (_how, rewritten) => {
    const path = join(tempDir(), "session-x.jsonl");
    writeFileSync(path, reply("a", 400_000)); // $6.00 of sonnet output
    const cards = new SessionCards(() => "/w");
    owned.push(cards);
    const book = new BudgetBook({
      settings: () => ({ perAgent: 5, perDay: 5.5 }),
      state: { load: () => undefined, save: () => undefined },
      log: () => undefined,
    });
    owned.push(book, book.follow(cards));
    const spent = () => cards.spend("a1", localDay(Date.now()))?.session?.usd;
    const read = async (until: (usd: number | undefined) => boolean) => {
      await readInto(cards, "a1", path);
      await waitForChange(
        (on) => cards.onDidChange(on).dispose,
        () => until(spent()),
        5000,
        "the transcript read",
      );
    };
    await read((usd) => usd !== undefined && usd > 5.9);
    expect(book.verdict("a1")).toMatchObject({ paused: true, scope: "agent" });

    // The agent's last call before the pause rewrites the file; the reader reads it again (its figure drops).
    writeFileSync(path, rewritten);
    await read((usd) => usd === undefined || usd < 1);
    expect(book.verdict("a1")).toMatchObject({ paused: true, scope: "agent", spentUsd: expect.closeTo(6, 6) });
    expect(book.budgetView("a1")?.paused).toBe("Paused at budget — $6.00 of $5.00");
  });
});
