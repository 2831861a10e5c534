/** The one notice the panel shows above the cards (e.g. "claude not found"), kept for each new snapshot. */
import type { ExtensionMessage, NoticeView } from "../../shared/protocol";

export class PanelNotice {
  private notice: NoticeView | null = null;

  constructor(private readonly post: (message: ExtensionMessage) => void) {}

  get current(): NoticeView | null {
    return this.notice;
  }

  set(next: NoticeView | null): void {
    this.notice = next;
    this.post({ type: "notice", notice: next });
  }
}
