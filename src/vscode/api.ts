/**
 * The one value import of the `vscode` module; every other file imports `vscode` from here.
 * esbuild wraps each `import * as` of an external CommonJS module in a helper that copies all of
 * the module's properties (the whole API surface): once here instead of in fourteen files, which
 * is measurable in activation time.
 */
import * as vscode from "vscode";

export { vscode };
