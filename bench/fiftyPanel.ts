/**
 * The panel at fifty busy agents, in Chromium: the built panel bundle fed the messages the fifty-agent
 * bench's card feed posted (bench/fifty.ts --record), at the times they were posted. Prints the time
 * from a message to the end of its frame (p50, p99), long tasks, the DOM's size; then, with three
 * prompts, a race and long branches on the cards, whether anything scrolls sideways at 1400, 300 and
 * 280 px, and whether every prompt's Allow is on screen without scrolling the overview.
 *
 * `node --import tsx bench/fiftyPanel.ts [--messages file]` (without one it records 30 s of bench/fifty.ts
 * first). Needs `npm run build` (dist/webview) and Chromium (npm run setup:e2e); skips with the reason if not.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import type { CardView, ExtensionMessage, PromptView } from "../src/shared/protocol";
import { CHROMIUM_FLAGS } from "../test/e2e/browser";
import { e2ePaths, repoRoot } from "../test/e2e/paths";
import { servePanel } from "./fiftyPanel/page";
import { percentile } from "./percentile";

type Row = (name: string, value: string, target: string, ok: boolean | undefined) => void;
interface Recorded {
  at: number;
  message: ExtensionMessage;
}

const WEBVIEW = join(repoRoot, "dist", "webview");

function recording(): { recorded: Recorded[]; cleanup: () => void } {
  const at = process.argv.indexOf("--messages");
  const given = at >= 0 ? process.argv[at + 1] : undefined;
  const dir = given ? undefined : mkdtempSync(join(tmpdir(), "arcadia-fifty-panel-"));
  const file = given ?? join(dir as string, "messages.jsonl");
  if (!given) {
    const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", join(__dirname, "fifty.ts"), "--seconds", "30", "--record", file], {
      stdio: "inherit",
    });
    if (run.status !== 0) throw new Error("the fifty-agent bench failed to record its messages");
  }
  const recorded = readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Recorded);
  return { recorded, cleanup: () => dir && rmSync(dir, { recursive: true, force: true }) };
}

/** The last version of every card, with what a narrow side bar must hold: prompts, a race, long branches. */
function crowdedCards(recorded: Recorded[]): ExtensionMessage {
  const cards = new Map<string, CardView>();
  for (const { message } of recorded) if (message.type === "cardsChanged") for (const card of message.changed) cards.set(card.id, card);
  const prompt = (id: string, subject: string): PromptView => ({ id, kind: "permission", subject, toolUseId: null, canAlwaysAllow: true });
  const changed = [...cards.values()].map((card, i): CardView => {
    const extra: Partial<CardView> = { branch: i % 4 === 0 ? `arcadia/worktree-add-a-good-title-${i}` : "main" };
    if ([2, 16, 40].includes(i))
      Object.assign(extra, {
        status: "needsYou",
        needsYou: { kind: "permission" },
        prompts: [prompt(`p${i}`, `Bash: touch src/components/overview-${i}.tsx && npm test`)],
      });
    if (i >= 20 && i < 23) extra.race = { raceId: "r1", task: "add-a-good-title-to-every-page", member: i - 19, of: 3, picked: false, notStarted: null };
    return { ...card, ...extra };
  });
  return { type: "cardsChanged", changed, removed: [] };
}

export async function fiftyPanelBenchmarks(row: Row): Promise<void> {
  if (!existsSync(join(WEBVIEW, "assets", "agents.js"))) return console.log(`panel at fifty: skipped (no ${WEBVIEW}/assets/agents.js: npm run build)`);
  if (!existsSync(e2ePaths.chromium)) return console.log(`panel at fifty: skipped (no Chromium at ${e2ePaths.chromium}: npm run setup:e2e)`);
  const { recorded, cleanup } = recording();
  const { url, server } = await servePanel(WEBVIEW);
  const browser = await chromium.launch({ executablePath: e2ePaths.chromium, headless: true, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 280 } });
    await page.goto(url);
    await page.waitForSelector(".panel, .empty-state", { timeout: 30_000 });
    await page.evaluate((messages) => (window as unknown as { __replay(m: unknown): Promise<void> }).__replay(messages), recorded);
    const seen = await page.evaluate(() => {
      const w = window as unknown as { __latencies: number[]; __longTasks: { duration: number; at: number }[]; __mostLines: number };
      return { latencies: w.__latencies, longTasks: w.__longTasks, dom: document.querySelectorAll("*").length, lines: w.__mostLines };
    });
    const sorted = [...seen.latencies].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const p99 = percentile(sorted, 99);
    const long = seen.longTasks.filter((t) => t.duration > 100);
    row("panel at 50 busy agents: message → frame end p50", `${p50.toFixed(1)} ms`, "(printed)", undefined);
    row("panel at 50 busy agents: message → frame end p99", `${p99.toFixed(1)} ms`, "≤ 50 ms", p99 <= 50);
    row("panel at 50 busy agents: long tasks over 100 ms", `${long.length}`, "0", long.length === 0);
    console.log(
      `${"  messages, long tasks over 50 ms (longest)".padEnd(44)} ${`${sorted.length}, ${seen.longTasks.length} (${Math.max(0, ...seen.longTasks.map((t) => t.duration)).toFixed(0)} ms)`.padStart(14)}`,
    );
    if (long.length > 0)
      console.log(
        `${"  the long ones: ms at s into the replay".padEnd(44)} ${long.map((t) => `${t.duration.toFixed(0)}@${(t.at / 1000).toFixed(1)}`).join(" ")}`,
      );
    console.log(`${"  DOM elements at the end, most lines shown".padEnd(44)} ${`${seen.dom}, ${seen.lines}`.padStart(14)}`);

    await page.evaluate((message) => (window as unknown as { __deliver(m: unknown): void }).__deliver(message), crowdedCards(recorded));
    await page.waitForSelector('[data-testid="prompt-allow"]');
    const allowsInView = await page.evaluate(() =>
      Array.from(document.querySelectorAll('[data-testid="prompt-allow"]')).map((b) => {
        const r = b.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
      }),
    );
    const shown = allowsInView.filter(Boolean).length;
    row("  1400×280, 3 prompts: Allow on screen, no scroll", `${shown} of ${allowsInView.length}`, "all", shown === allowsInView.length);
    // Every line shown (the idle ones too) for the widths' checks.
    await page.click('[data-testid="idle-toggle"][aria-expanded="false"]').catch(() => undefined);
    for (const width of [1400, 300, 280]) {
      await page.setViewportSize({ width, height: 600 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
      const cut = await page.evaluate(() => (window as unknown as { __cut(): string[] }).__cut());
      row(`  ${width} px wide: names, statuses, n/N cut`, `${cut.length}`, "0", cut.length === 0);
      if (cut.length > 0) console.log(`    ${cut.slice(0, 6).join(" | ")}`);
      const sideways = await page.evaluate(() => (window as unknown as { __sideways(): { what: string; over: number }[] }).__sideways());
      const what = sideways.map((s) => `${s.what} +${s.over}px`).join(", ");
      row(`  ${width} px wide: sideways scroll`, sideways.length === 0 ? "none" : `${sideways.length}`, "none", sideways.length === 0);
      if (what) console.log(`    ${what}`);
    }
  } finally {
    await browser.close();
    server.close();
    cleanup();
  }
}

if (require.main === module) {
  const row: Row = (name, value, target, ok) =>
    console.log(`${name.padEnd(44)} ${value.padStart(14)}   target ${target}${ok === undefined ? "" : ok ? "  ✓ within target" : "  ✗ MISSES target"}`);
  fiftyPanelBenchmarks(row).then(
    () => process.exit(process.exitCode ?? 0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
