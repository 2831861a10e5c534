/** The Arcadia webview view in the bottom panel. Hidden and shown any number of times. */
import { vscode } from "../vscode/api";
import type { ExtensionMessage } from "../shared/protocol";
import { webviewHtml } from "../vscode/webviewHtml";
import { DisposableObject } from "../core/util/lifecycle";

export { PANEL_VIEW_ID } from "../vscode/viewIds";

export class ArcadiaViewProvider extends DisposableObject implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private readonly viewChanged = this._register(new vscode.EventEmitter<void>());
  /** The view was created or disposed (a closed panel cannot answer permission prompts). */
  readonly onDidChangeView = this.viewChanged.event;

  /** `initialSnapshot`: the cards now, embedded in the page so its first paint has them. */
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onMessage: (raw: unknown) => Promise<void>,
    private readonly initialSnapshot?: () => ExtensionMessage,
  ) {
    super();
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    const assetsRoot = vscode.Uri.joinPath(this.extensionUri, "dist", "webview");
    view.webview.options = { enableScripts: true, localResourceRoots: [assetsRoot] };
    view.webview.html = webviewHtml(view.webview, assetsRoot, vscode.Uri.joinPath, this.initialSnapshot?.());
    view.webview.onDidReceiveMessage((raw) => void this.onMessage(raw));
    view.onDidDispose(() => {
      if (this.view !== view) return;
      this.view = undefined;
      this.viewChanged.fire();
    });
    this.view = view;
    this.viewChanged.fire();
  }

  get exists(): boolean {
    return this.view !== undefined;
  }

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  post(message: ExtensionMessage): void {
    void this.view?.webview.postMessage(message);
  }
}
