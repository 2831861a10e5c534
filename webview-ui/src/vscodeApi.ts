/** The part of VS Code's webview API that the panel uses. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  // Injected by VS Code into every webview; absent in tests and in a plain browser.
  function acquireVsCodeApi(): VsCodeApi;
}

let api: VsCodeApi | undefined;

// VS Code throws if acquireVsCodeApi is called twice, so it is called once, here, lazily.
function vscode(): VsCodeApi {
  if (!api) {
    api =
      typeof globalThis.acquireVsCodeApi === "function"
        ? globalThis.acquireVsCodeApi()
        : // Outside VS Code (vite dev server): messages go nowhere instead of crashing the page.
          { postMessage: () => undefined, getState: () => undefined, setState: () => undefined };
  }
  return api;
}

/** Tests swap in a fake to see what the panel posts. */
export function setVsCodeApi(fake: VsCodeApi | undefined): void {
  api = fake;
}

/** Untyped: pages talk to the extension through their own client (clients/), typed by their protocol. */
export function postToExtension(message: unknown): void {
  vscode().postMessage(message);
}

export function loadState(): unknown {
  return vscode().getState();
}

export function saveState(state: unknown): void {
  vscode().setState(state);
}
