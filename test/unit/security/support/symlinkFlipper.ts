/**
 * A separate process that flips a path, as fast as it can, between what it is (a file or a
 * folder) and a symlink to somewhere else, each state set atomically (rename), each held for up
 * to 0.2 ms so that calls racing it meet both. The attacker of the check-then-use tests.
 */
import { type ChildProcess, spawn } from "node:child_process";

const FLIP = `
const fs = require("fs");
const [path, target] = process.argv.slice(1);
const real = path + ".real", link = path + ".link";
const dwell = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.random() * 0.2);
for (;;) {
  try { fs.symlinkSync(target, link); } catch {}
  try { fs.renameSync(path, real); fs.renameSync(link, path); } catch {}
  dwell();
  try { fs.renameSync(path, link); fs.renameSync(real, path); } catch {}
  dwell();
}
`;

/** Starts flipping `path` ⇄ a symlink to `target`; kill the process (SIGKILL) to stop. */
export function flipToSymlink(path: string, target: string): ChildProcess {
  return spawn(process.execPath, ["-e", FLIP, path, target], { stdio: "ignore" });
}
