/**
 * write_file / apply_diff proposals as VS Code diffs: the current file (or an empty one) against
 * a read-only virtual document of the proposal (scheme `arcadia-proposal`), with Accept / Reject
 * in an information message and in the diff editor's title (commands `arcadia.acceptDiff` /
 * `arcadia.rejectDiff`, contributed to `editor/title` when `resourceScheme == arcadia-proposal`).
 * The panel's Complete / Cancel reach the same decision through accept(id) / reject(id).
 */
import { basename } from "node:path";
import { vscode } from "../api";
import type { DiffDecision, DiffReviewer, ProposeChange } from "../../core/tools";
import { DisposableObject } from "../../core/util";

export const PROPOSAL_SCHEME = "arcadia-proposal";
export const ACCEPT_DIFF_COMMAND = "arcadia.acceptDiff";
export const REJECT_DIFF_COMMAND = "arcadia.rejectDiff";

interface Pending {
  change: ProposeChange;
  proposalUri: vscode.Uri;
  emptyUri: vscode.Uri;
  decide: (decision: DiffDecision) => void;
}

export class VscodeDiffReviewer extends DisposableObject implements DiffReviewer, vscode.TextDocumentContentProvider {
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;

  constructor(private readonly agentLabel: (agentId: string | undefined) => string) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this));
    this._register(vscode.commands.registerCommand(ACCEPT_DIFF_COMMAND, (arg?: unknown) => this.fromCommand(arg, "accept")));
    this._register(vscode.commands.registerCommand(REJECT_DIFF_COMMAND, (arg?: unknown) => this.fromCommand(arg, "reject")));
    // Disposed first (newest first): each pending proposal is rejected while its documents can still be read.
    this._register({ dispose: () => this.rejectAll() });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const [id, side] = uri.path.split("/").filter(Boolean);
    const pending = id ? this.pending.get(id) : undefined;
    if (!pending || side === "empty") return "";
    return pending.change.proposed;
  }

  propose(change: ProposeChange): { id: string; decision: Promise<DiffDecision> } {
    const id = `diff-${this.nextId++}`;
    const name = basename(change.path);
    const proposalUri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}/proposal/${name}` });
    const emptyUri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}/empty/${name}` });
    let decide!: (d: DiffDecision) => void;
    const decision = new Promise<DiffDecision>((resolve) => (decide = resolve));
    this.pending.set(id, { change, proposalUri, emptyUri, decide });

    this.reveal(id);
    const who = this.agentLabel(change.agentId);
    void vscode.window
      .showInformationMessage(
        `${who} wants to ${change.original === undefined ? "create" : "change"} ${vscode.workspace.asRelativePath(change.path)} (${change.title}).`,
        "Accept",
        "Reject",
      )
      .then((answer) => {
        if (answer === "Accept") this.settle(id, "accept");
        else if (answer === "Reject") this.settle(id, "reject");
        // Dismissed: the diff editor's title buttons and the panel still decide.
      });
    return { id, decision };
  }

  /** Opens (again) the diff of a pending proposal: the panel's "Show diff". */
  reveal(id: string): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    const { change, proposalUri, emptyUri } = pending;
    const left = change.original === undefined ? emptyUri : vscode.Uri.file(change.path);
    const title =
      `${this.agentLabel(change.agentId)}: ${basename(change.path)} ${change.original === undefined ? "(new file)" : "(proposed change)"} ` +
      `— Accept or Reject`;
    void vscode.commands.executeCommand("vscode.diff", left, proposalUri, title, { preview: false });
  }

  accept(id: string): void {
    this.settle(id, "accept");
  }

  reject(id: string): void {
    this.settle(id, "reject");
  }

  private rejectAll(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, "reject");
  }

  /** A title-bar click passes the editor's uri; the palette passes nothing: use the active diff. */
  private fromCommand(arg: unknown, decision: DiffDecision): void {
    const uri = arg instanceof vscode.Uri ? arg : activeProposalUri();
    const id = uri?.scheme === PROPOSAL_SCHEME ? uri.path.split("/").filter(Boolean)[0] : undefined;
    if (id && this.pending.has(id)) this.settle(id, decision);
    else if (this.pending.size === 1) this.settle([...this.pending.keys()][0] as string, decision);
    else void vscode.window.showInformationMessage("Arcadia: no proposed change is in front; open its diff first.");
  }

  private settle(id: string, decision: DiffDecision): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    pending.decide(decision);
    void closeDiffTabs(pending.proposalUri);
  }
}

function activeProposalUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputTextDiff ? input.modified : undefined;
}

async function closeDiffTabs(proposalUri: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === proposalUri.toString());
  if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
}
