/**
 * "5s", "1m 03s", "2h 04m 09s": seconds always shown, so a running tool visibly ticks. The one
 * format of a call's elapsed time: the cards and the extension's call picker (src/vscode/tools/callPicker.ts)
 * both use it. Keep this file pure (no React, no DOM, no imports): both bundles carry it, the only
 * value the webview takes from the extension's src/ (eslint.config.mjs allows it by name).
 */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor((Number.isFinite(ms) ? ms : 0) / 1000));
  const s = total % 60;
  const m = Math.floor(total / 60) % 60;
  const h = Math.floor(total / 3600);
  const pad = (n: number) => String(n).padStart(2, "0");
  if (h > 0) return `${h}h ${pad(m)}m ${pad(s)}s`;
  if (m > 0) return `${m}m ${pad(s)}s`;
  return `${s}s`;
}
