/** The Problems view as a DiagnosticsSource, and editors as an EditorOpener. */
import { vscode } from "../api";
import type { Diagnostic, DiagnosticsSource, EditorOpener, Severity } from "../../core/tools";

const SEVERITY: Record<vscode.DiagnosticSeverity, Severity> = {
  [vscode.DiagnosticSeverity.Error]: "error",
  [vscode.DiagnosticSeverity.Warning]: "warning",
  [vscode.DiagnosticSeverity.Information]: "information",
  [vscode.DiagnosticSeverity.Hint]: "hint",
};

function toDiagnostic(d: vscode.Diagnostic): Diagnostic {
  const code = typeof d.code === "object" ? d.code.value : d.code;
  return {
    severity: SEVERITY[d.severity],
    message: d.message,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    ...(d.source ? { source: d.source } : {}),
    ...(code !== undefined ? { code: String(code) } : {}),
  };
}

export const vscodeDiagnostics: DiagnosticsSource = {
  get(path) {
    if (path !== undefined) return [{ path, diagnostics: vscode.languages.getDiagnostics(vscode.Uri.file(path)).map(toDiagnostic) }];
    return vscode.languages
      .getDiagnostics()
      .filter(([uri, list]) => uri.scheme === "file" && list.length > 0)
      .map(([uri, list]) => ({ path: uri.fsPath, diagnostics: list.map(toDiagnostic) }));
  },
};

export const vscodeEditorOpener: EditorOpener = {
  async open(path, line) {
    const position = line ? new vscode.Position(line - 1, 0) : undefined;
    await vscode.window.showTextDocument(vscode.Uri.file(path), {
      preview: false,
      preserveFocus: true,
      ...(position ? { selection: new vscode.Range(position, position) } : {}),
    });
  },
};
