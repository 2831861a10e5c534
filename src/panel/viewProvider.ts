/** The Arcadia webview view in the bottom panel. Hidden and shown any number of times. */
import { vscode } from "../vscode/api";
import type { PanelProtocol, PanelPush } from "../shared/protocols/panel";
import { type PageBinding, WebviewHost } from "../vscode/webviewHost";

export { PANEL_VIEW_ID } from "../vscode/viewIds";

export class ArcadiaViewProvider implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private host: WebviewHost<PanelProtocol> | undefined;
  private readonly viewChanged = new vscode.EventEmitter<void>();
  /** The view was created or disposed (a closed panel cannot answer permission prompts). */
  readonly onDidChangeView = this.viewChanged.event;

  /**
   * `binding`: the panel's messages and their handlers (messageRouter.ts); `initialSnapshot`: the
   * cards now, embedded in the page so its first paint has them.
   */
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly binding: PageBinding<PanelProtocol>,
    private readonly initialSnapshot?: () => PanelPush,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const host = new WebviewHost(view, {
      ...this.binding,
      extensionUri: this.extensionUri,
      joinPath: vscode.Uri.joinPath,
      initialState: this.initialSnapshot?.(),
    });
    host.onDidDispose(() => {
      if (this.host !== host) return;
      this.host = undefined;
      this.view = undefined;
      this.viewChanged.fire();
    });
    const previous = this.host;
    this.host = host;
    this.view = view;
    previous?.dispose();
    this.viewChanged.fire();
  }

  get exists(): boolean {
    return this.view !== undefined;
  }

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  post(message: PanelPush): void {
    this.host?.post(message);
  }
}
