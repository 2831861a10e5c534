/**
 * The Arcadia webview view in the bottom panel. Hidden and shown any number of times. It owns its
 * subscription to the cards (GitLens' habit: the provider subscribes, not the wiring): every card
 * change goes to the page while it exists, and the page paints first from the same snapshot it is
 * sent on `webviewReady`.
 */
import { vscode } from "../api";
import type { PanelProtocol, PanelPush } from "../../shared/protocols/panel";
import { type PageBinding, WebviewHost } from "../webviewHost";
import { DisposableObject } from "../../core/util";
import { type CardSource, followCards } from "./cardFeed";
import { PANEL_VIEW_ID } from "../viewIds";

export { PANEL_VIEW_ID };

export class ArcadiaViewProvider extends DisposableObject implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private host: WebviewHost<PanelProtocol> | undefined;
  private readonly viewChanged = this._register(new vscode.EventEmitter<void>());
  /** The view was created or disposed (a closed panel cannot answer permission prompts). */
  readonly onDidChangeView = this.viewChanged.event;
  private readonly visibleChanged = this._register(new vscode.EventEmitter<boolean>());
  /** The view was shown (true) or hidden (false): another view of the bottom panel took its place. */
  readonly onDidChangeVisible = this.visibleChanged.event;

  /**
   * `binding`: the panel's messages and their handlers (messageRouter.ts); `snapshot`: every card
   * now and the notice, embedded in the page so its first paint has them.
   */
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly binding: PageBinding<PanelProtocol>,
    cards: CardSource,
    private readonly snapshot: () => PanelPush,
  ) {
    super();
    this._register(followCards(cards, (message) => this.post(message)));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    const host = new WebviewHost(view, {
      ...this.binding,
      extensionUri: this.extensionUri,
      joinPath: vscode.Uri.joinPath,
      initialState: this.snapshot(),
    });
    const visibility = view.onDidChangeVisibility(() => this.visibleChanged.fire(view.visible));
    host.onDidDispose(() => {
      visibility.dispose();
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

  /** Brings the panel to the front without taking the keyboard from where the user types (a
   * terminal); before the view was ever made, through its focus command. */
  reveal(): Thenable<unknown> {
    if (!this.view) return vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`);
    this.view.show(true);
    return Promise.resolve();
  }

  post(message: PanelPush): void {
    this.host?.post(message);
  }
}
