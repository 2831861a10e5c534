/**
 * What the races e2e prints when a step fails: a screenshot, the extension's log, the model's
 * requests and every agent's terminal as it reads (the panel's terminal list), so a failure on a
 * loaded machine can be told from a product fault without running it again.
 */
import type { AgentWindow } from "./agentWindow";
import { terminalText } from "./harness";

export async function reportRaceFailure(win: AgentWindow | undefined, testName: string): Promise<void> {
  if (!win) return;
  const { vs, page } = win;
  await vs.screenshot(`failed-races-${testName.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}`).catch(() => undefined);
  console.log(`Arcadia log at the failure of "${testName}":\n${vs.extensionLog()}`);
  console.log(`terminal at the failure:\n${await terminalText(page, ".part.panel").catch(() => "(none)")}`);
  const seen = win.model.requests.map(
    (r) => `${r.time} ${r.headers["x-claude-code-session-id"] ?? "-"} ${r.reply} ${r.body?.firstUserText.slice(0, 40) ?? ""}`,
  );
  console.log(`model requests at the failure:\n${seen.join("\n")}`);
  await page
    .locator(".part.panel .composite-bar .action-item", { hasText: "Terminal" })
    .click()
    .catch(() => undefined);
  for (const row of await page
    .locator(".part.panel .tabs-list .monaco-list-row", { hasText: "Agent" })
    .all()
    .catch(() => [])) {
    await row.click().catch(() => undefined);
    console.log(`--- ${await row.textContent().catch(() => "?")}:\n${await terminalText(page, ".part.panel").catch(() => "(none)")}`);
  }
}
