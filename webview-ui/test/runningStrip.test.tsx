/** The running row's Cancel / Complete / Stop are pinned under the card's sticky header, never last below the fold. */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { agent, liveCall, renderPanel, snapshot, tool } from "./helpers";

const header = () => screen.getByTestId("agent-card").querySelector<HTMLElement>(".agent-card-header")!;

describe("what runs now is pinned with the header", () => {
  it("with 12 agents open and 30 rows before it, the running call's Complete is in the sticky header, ahead of every row", async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    const rows = Array.from({ length: 30 }, (_, i) => tool({ id: `t${i}`, label: `Reading f${i}.ts`, outcome: "done" }));
    const running = tool({ id: "t-run", name: "mcp__arcadia__execute_command", label: "Running: npm test" });
    const others = Array.from({ length: 11 }, (_, i) => agent({ index: i + 1 }));
    const busy = agent({
      index: 12,
      status: "active",
      focused: true,
      tools: [...rows, running],
      calls: [liveCall({ callId: "c1", toolUseId: "t-run", display: "npm test" })],
    });
    panel.send(snapshot([...others, busy]));
    const complete = within(header()).getByTestId("call-complete");
    expect(within(header()).getByTestId("live-call")).toHaveTextContent("execute_command: npm test");
    // Once on the card: not again on its row, which keeps saying what runs.
    expect(within(screen.getByTestId("agent-card")).getAllByTestId("call-complete")).toHaveLength(1);
    const firstRow = screen.getAllByTestId("tool-row")[0]!;
    expect(complete.compareDocumentPosition(firstRow) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.click(complete);
    expect(panel.posted.at(-1)).toEqual({ type: "completeCall", callId: "c1" });
  });

  it("a command left running after Complete keeps its Stop in the header, with its command named", () => {
    const panel = renderPanel();
    const done = tool({ id: "t1", name: "mcp__arcadia__execute_command", label: "Running: npm run dev", outcome: "done" });
    panel.send(snapshot([agent({ tools: [done], stillRunning: [{ id: "p1", toolUseId: "t1", display: "npm run dev", startedAt: Date.now() }] })]));
    const running = within(header()).getByTestId("still-running");
    expect(running).toHaveTextContent("npm run dev");
    expect(within(running).getByTestId("command-stop")).toBeInTheDocument();
    expect(screen.getAllByTestId("still-running")).toHaveLength(1);
  });

  it("nothing running: no strip", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ tools: [tool({ id: "t1", outcome: "done" })] })]));
    expect(screen.queryByTestId("running-strip")).not.toBeInTheDocument();
  });
});
