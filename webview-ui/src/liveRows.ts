/** Which live call, prompt or still-running command goes on which tool row, the rest to the card's foot. */
import type { CardView, LiveCallView, PromptView, StillRunningView, ToolView } from "../../src/shared/protocol";

/** What is live on one tool row: its MCP call in flight, its open prompts, a command it left running. */
export interface RowLive {
  calls: LiveCallView[];
  prompts: PromptView[];
  stillRunning: StillRunningView[];
}

export interface PlacedLive {
  /** By tool row id (a transcript tool_use id). */
  byTool: ReadonlyMap<string, RowLive>;
  /** No row to sit on (not read from the transcript yet, or no tool_use id): the card's foot. */
  foot: RowLive;
}

const EMPTY: PlacedLive = { byTool: new Map(), foot: { calls: [], prompts: [], stillRunning: [] } };

/**
 * Puts each live call and prompt on the row of its tool_use, or at the foot of the card when that
 * row is not on screen. `shownTools` are the rows as displayed (with lingering ones), so a call
 * never sits on a row the user cannot see.
 */
export function placeLive(shownTools: readonly ToolView[], live: Pick<CardView, "calls" | "prompts" | "stillRunning"> | undefined): PlacedLive {
  if (!live || (live.calls.length === 0 && live.prompts.length === 0 && !live.stillRunning?.length)) return EMPTY;
  const rowIds = new Set(shownTools.map((t) => t.id));
  const byTool = new Map<string, RowLive>();
  const foot: RowLive = { calls: [], prompts: [], stillRunning: [] };
  const slot = (toolUseId: string | null): RowLive => {
    if (toolUseId === null || !rowIds.has(toolUseId)) return foot;
    let row = byTool.get(toolUseId);
    if (!row) byTool.set(toolUseId, (row = { calls: [], prompts: [], stillRunning: [] }));
    return row;
  };
  for (const call of live.calls) slot(call.toolUseId).calls.push(call);
  for (const prompt of live.prompts) slot(prompt.toolUseId).prompts.push(prompt);
  for (const command of live.stillRunning ?? []) slot(command.toolUseId).stillRunning.push(command);
  return { byTool, foot };
}
