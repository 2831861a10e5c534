// Installed by `npm run demo` only, next to Arcadia: a fresh VS Code profile starts with the
// bottom panel closed, so the Arcadia tab would not be on screen. This shows it once the window
// is up. (VS Code keeps panel layout in the browser, so settings cannot do it.)
// CommonJS: what every VS Code the demo may meet loads (the "vscode" module is only require-able).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const vscode = require("vscode");

exports.activate = async () => {
  try {
    await vscode.commands.executeCommand("arcadia.showPanel");
  } catch (err) {
    console.error(`arcadia-demo-opener: ${err}`);
  }
};

exports.deactivate = () => {};
