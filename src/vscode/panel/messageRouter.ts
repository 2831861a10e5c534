/**
 * The panel's messages bound to what answers them (panelActions.ts), checked by the panel's own
 * protocol (shared/protocols/panel.ts): the shared host (vscode/webviewHost.ts) runs the binding,
 * so a message that does not fit — another page's included — is logged and ignored there.
 */
import type { Log } from "../../agents/ports";
import { PANEL_PAGE, type PanelHandlers, type PanelProtocol } from "../../shared/protocols/panel";
import type { PageBinding } from "../webviewHost";

export function panelPageBinding(handlers: PanelHandlers, log: Log): PageBinding<PanelProtocol> {
  return { page: PANEL_PAGE, handlers, log };
}
