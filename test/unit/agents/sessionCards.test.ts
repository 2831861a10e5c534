/** The files an agent changed this session on its card, from a transcript the real CLI wrote. */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { followSessions, SessionCards } from "../../../src/agents/sessions/sessionCards";
import { Emitter } from "../../../src/core/util/emitter";
import { recordedSession } from "../../support/recorded";
import { useTempDirs } from "../../support/tempDir";
import { waitForChange } from "../../support/waitFor";
import { handCards } from "../../support/cardEvents";

const tempDir = useTempDirs();

describe("the files an agent changed this session, on its card", () => {
  it("appear when its tool ends (read from the transcript's new lines), and a new session (/clear) starts from none", async () => {
    const recorded = readFileSync(recordedSession("several-tools").path, "utf8").split("\n");
    const writeAt = recorded.findIndex((l) => l.includes('"name":"Write"'));
    const dir = tempDir();
    const first = join(dir, "first.jsonl");
    writeFileSync(first, `${recorded.slice(0, writeAt).join("\n")}\n`);
    const cards = new SessionCards(() => undefined, 5);
    const changes = handCards();
    const hooks = new Emitter<string>();
    let session = { transcriptPath: first, cwd: "/home/user/project" };
    followSessions(cards, { cards: changes, sessionOf: () => session, onDidHook: hooks.event });
    const edits = (want: (v: ReturnType<SessionCards["sessionEdits"]>) => boolean) =>
      waitForChange(
        (on) => cards.onDidChange(on).dispose,
        () => want(cards.sessionEdits("a1")) && (cards.sessionEdits("a1") ?? "none"),
        5000,
        "the card's edits",
      );

    changes.change({ id: "a1" } as never);
    expect(cards.sessionEdits("a1")).toBeNull();
    appendFileSync(first, recorded.slice(writeAt).join("\n"));
    hooks.fire("a1");
    expect(await edits((v) => v !== null)).toEqual({ files: ["created.txt"], total: 1 });

    session = { transcriptPath: join(dir, "after-clear.jsonl"), cwd: "/home/user/project" };
    writeFileSync(session.transcriptPath, "");
    changes.change({ id: "a1" } as never);
    expect(await edits((v) => v === null)).toBe("none");
    cards.dispose();
  });
});

describe("a card's session figures", () => {
  it("tokens and estimated cost, the earlier turns (not the last, the card shows that), and a limit that stopped the session", async () => {
    const cards = new SessionCards(() => undefined, 5);
    const changes = handCards();
    const sessions: Record<string, { transcriptPath: string; cwd: string }> = {
      resumed: { transcriptPath: recordedSession("rename-resume").path, cwd: "/home/user/project" },
      limited: { transcriptPath: recordedSession("usage-limit-print").path, cwd: "/home/user/project" },
    };
    followSessions(cards, { cards: changes, sessionOf: (id) => sessions[id], onDidHook: new Emitter<string>().event });
    changes.change({ id: "resumed" } as never);
    changes.change({ id: "limited" } as never);
    await waitForChange(
      (on) => cards.onDidChange(on).dispose,
      () => cards.usage("resumed") && cards.limit("limited"),
      5000,
      "both sessions read",
    );

    // The real CLI's own cost-state for this session said $0.00344 (4 replies, 400 input and 92 output tokens at Opus 5.5's price).
    expect(cards.usage("resumed")).toEqual({
      tokens: { input: 400, output: 92, cacheRead: 0, cacheWrite: 0 },
      costUsd: expect.closeTo(0.00344, 9),
      unpricedModels: [],
    });
    expect(cards.history("resumed")).toEqual([
      {
        number: 1,
        prompt: "Plan the billing fix",
        durationMs: expect.any(Number),
        tools: 1,
        ending: "completed",
        rows: [{ label: "Running: echo planned", outcome: "done" }],
      },
    ]);
    expect(cards.limit("resumed")).toBeNull();
    expect(cards.limit("limited")).toBe("Rate limited by the API (429)");
    cards.dispose();
  });
});
