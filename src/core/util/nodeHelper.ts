/**
 * A small Node helper process with an IPC channel, as git's and the commands' hosts start one
 * (core/git/gitHost.ts, core/tools/commandHost.ts): children are started from it, not from the
 * extension host, whose fork copies its page tables. Idle, it never keeps this process alive.
 */
import { type ChildProcess, spawn } from "node:child_process";

/** Starts `source` (plain JS) in a bare Node; throws when it cannot start. Held open by nobody until `holdOpen`. */
export function spawnNodeHelper(source: string): ChildProcess {
  // process.execPath is node, or VS Code's Electron: ELECTRON_RUN_AS_NODE makes it node.
  const child = spawn(process.execPath, ["-e", source], {
    stdio: ["ignore", "ignore", "ignore", "ipc"],
    env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
    windowsHide: true,
  });
  holdOpen(child, false);
  return child;
}

/** While work is in flight the helper keeps this process alive (its answers must arrive); idle, it never does. */
export function holdOpen(child: ChildProcess, hold: boolean): void {
  const channel = child.channel as { ref?: () => void; unref?: () => void } | undefined;
  if (hold) {
    child.ref();
    channel?.ref?.();
  } else {
    child.unref();
    channel?.unref?.();
  }
}
