/** A panel-wide notice (such as claude not found) with the actions that fix it. */
import { VSCodeButton } from "@vscode/webview-ui-toolkit/react";
import type { NoticeView } from "../../../src/shared/protocol";
import { post } from "../clients/panelClient";
import { Codicon } from "./Codicon";

/** A panel-wide message (e.g. `claude` not found) with what the user can do about it. */
export function NoticeBanner({ notice }: { notice: NoticeView }) {
  return (
    <div className={`notice notice-${notice.kind}`} data-testid="notice" role="status">
      <Codicon name={notice.kind === "error" ? "error" : "warning"} className="notice-icon" />
      <div className="notice-body">
        <p className="notice-message">{notice.message}</p>
        {notice.actions.length > 0 && (
          <div className="notice-actions">
            {notice.actions.map((action, i) => (
              <VSCodeButton
                key={action.command}
                data-testid="notice-action"
                data-command={action.command}
                appearance={i === 0 ? "primary" : "secondary"}
                onClick={() => post({ type: "noticeAction", command: action.command })}
              >
                {action.label}
              </VSCodeButton>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
