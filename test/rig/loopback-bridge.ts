// The test's side of loopback-bridge-sidecar.ts: a Unix socket that forwards every connection to
// 127.0.0.1:<port> in the test's own network namespace.
import { connect, createServer, type Socket } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LaunchSpec } from "./launch.js";

export interface LoopbackBridge {
  socketPath: string;
  /** A sidecar for one rig launch, so its CLI reaches 127.0.0.1:<port> (a new one per launch:
   * each launch waits for its own ready file). */
  sidecar(): NonNullable<LaunchSpec["sidecar"]>;
  close(): Promise<void>;
}

const rigDir = dirname(fileURLToPath(import.meta.url));

/** `dir` must be short: Unix socket paths are limited to ~107 bytes. */
export async function loopbackBridge(port: number, dir: string): Promise<LoopbackBridge> {
  const socketPath = join(dir, `bridge-${port}.sock`);
  const open = new Set<Socket>();
  let launches = 0;
  const server = createServer((outside) => {
    const inside = connect(port, "127.0.0.1");
    open.add(outside).add(inside);
    outside.pipe(inside).pipe(outside);
    const end = () => {
      outside.destroy();
      inside.destroy();
      open.delete(outside);
      open.delete(inside);
    };
    for (const s of [outside, inside]) {
      s.once("close", end);
      s.once("error", end);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    socketPath,
    sidecar: () => {
      const readyFile = join(dir, `bridge-${port}-${++launches}.ready`);
      return { script: join(rigDir, "loopback-bridge-sidecar.ts"), args: ["--port", String(port), "--socket", socketPath, "--ready", readyFile], readyFile };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
