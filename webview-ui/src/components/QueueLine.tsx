/** The task queue on one line under the toolbar ("Queue: 7 waiting · 3 running · 12 done · 1 needs you"); a click opens the queue tab. */
import { post } from "../clients/panelClient";
import { Codicon } from "./Codicon";

export function QueueLine({ line }: { line: string }) {
  const needsYou = / needs you/.test(line);
  return (
    <button
      type="button"
      className={`queue-line${needsYou ? " queue-line-needs-you" : ""}`}
      data-testid="queue-line"
      title="Open the queue: each task, its agent, state, time, cost, files and predicted merge"
      onClick={() => post({ type: "showQueue" })}
    >
      <Codicon name="list-ordered" className="button-icon" />
      {line}
    </button>
  );
}
