import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "webview-ui/node_modules/**", "test/fixtures/**", "test-output/**", "esbuild.js"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The panel runs in VS Code's webview, a browser.
    files: ["webview-ui/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // One value import of vscode (src/vscode/api.ts): each `import * as` costs activation time in the bundle.
    files: ["src/**/*.ts"],
    ignores: ["src/vscode/api.ts", "src/core/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { paths: [{ name: "vscode", allowTypeImports: true, message: "import { vscode } from src/vscode/api.ts (one copy of the API namespace in the bundle)." }] },
      ],
    },
  },
  {
    // The window's agents reach VS Code only through their ports (src/agents/ports.ts), so they are
    // tested in plain Node with fakes: not even a type from vscode.
    files: ["src/agents/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "vscode", message: "src/agents must not depend on vscode: add what it needs to src/agents/ports.ts and adapt it in src/vscode." }] }],
    },
  },
  {
    // The webview is a separate bundle: from the extension's code it may take types only (the
    // protocol), never values, which would drag extension code into the browser. One exception,
    // by name: src/shared/elapsed.ts, a pure function with no imports, the one elapsed-time format
    // the cards and the extension's call picker share (src/ never imports webview-ui: check-layers).
    files: ["webview-ui/src/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^(\\.\\./)+src/(?!shared/elapsed$)", allowTypeImports: true, message: "the webview imports only types from the extension's src/ (import type { … })." }] },
      ],
    },
  },
  {
    // What an object owns goes with it through `_register` / DisposableStore / DisposableMap
    // (src/core/util/lifecycle.ts), never a hand-written loop that disposes a list.
    files: ["src/**/*.ts"],
    ignores: ["src/core/util/lifecycle.ts", "src/core/util/emitter.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...[
          "ForOfStatement > ExpressionStatement.body > CallExpression[callee.property.name='dispose']",
          "ForOfStatement > ExpressionStatement.body > ChainExpression > CallExpression[callee.property.name='dispose']",
          "ForOfStatement > BlockStatement.body[body.length=1] > ExpressionStatement > CallExpression[callee.property.name='dispose']",
          "ForOfStatement > BlockStatement.body[body.length=1] > ExpressionStatement > ChainExpression > CallExpression[callee.property.name='dispose']",
          "CallExpression[callee.property.name='forEach'] > ArrowFunctionExpression > CallExpression.body[callee.property.name='dispose']",
          "CallExpression[callee.property.name='forEach'] > ArrowFunctionExpression > ChainExpression.body > CallExpression[callee.property.name='dispose']",
          "CallExpression[callee.property.name='forEach'] > MemberExpression.arguments[property.name='dispose']",
          // In a dispose(), two in a row: `this.a.dispose(); this.b.dispose();` — and `dispose: () => (a.dispose(), b.dispose())`
          ":matches(MethodDefinition, Property)[key.name='dispose'] > :function > BlockStatement > " +
            "ExpressionStatement:has(> CallExpression[callee.property.name='dispose'][callee.object.type!='Super']) + " +
            "ExpressionStatement:has(> CallExpression[callee.property.name='dispose'][callee.object.type!='Super'])",
          "SequenceExpression:has(> CallExpression[callee.property.name='dispose'] ~ CallExpression[callee.property.name='dispose'])",
        ].map((selector) => ({
          selector,
          message: "a hand-written dispose list: _register what the object owns (DisposableObject), or hold a DisposableStore / DisposableMap (src/core/util/lifecycle.ts).",
        })),
      ],
    },
  },
  {
    // The core is plain Node: tested without VS Code, reusable by the CLI.
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "vscode", message: "src/core must not depend on vscode; adapt it in src/ outside core." }] }],
    },
  },
);
