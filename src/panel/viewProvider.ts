/** The Arcadia webview view in the bottom panel. Hidden and shown any number of times. */
import * as vscode from "vscode";
import type { ExtensionMessage } from "../shared/protocol";
import { webviewHtml } from "./webviewHtml";

export const PANEL_VIEW_ID = "arcadia.panelView";

export class ArcadiaViewProvider implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onMessage: (raw: unknown) => Promise<void>,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const assetsRoot = vscode.Uri.joinPath(this.extensionUri, "dist", "webview");
    view.webview.options = { enableScripts: true, localResourceRoots: [assetsRoot] };
    view.webview.html = webviewHtml(view.webview, assetsRoot, vscode.Uri.joinPath);
    view.webview.onDidReceiveMessage((raw) => void this.onMessage(raw));
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
    });
    this.view = view;
  }

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  post(message: ExtensionMessage): void {
    void this.view?.webview.postMessage(message);
  }
}
