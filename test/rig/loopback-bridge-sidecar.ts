// A rig "sidecar" that carries TCP connections made inside the CLI's loopback-only namespace out
// to a Unix socket in the shared filesystem (network namespaces do not separate path-bound Unix
// sockets). With loopbackBridge() on the test's side, a server running in the TEST process on
// 127.0.0.1:<port> is reachable from the CLI at the same address and port, so a test can hold
// the server's objects (and their timings) directly instead of talking to a server in the
// namespace through files.
//   tsx test/rig/loopback-bridge-sidecar.ts --port <n> --socket <path> --ready <file>
import { writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";

function arg(name: string): string {
  const i = process.argv.indexOf(name);
  const value = i >= 0 ? process.argv[i + 1] : undefined;
  if (!value) throw new Error(`usage: loopback-bridge-sidecar --port <n> --socket <path> --ready <file> (missing ${name})`);
  return value;
}

const port = Number(arg("--port"));
const socketPath = arg("--socket");
const ready = arg("--ready");

const server = createServer((inside) => {
  const outside = connect(socketPath);
  inside.pipe(outside).pipe(inside);
  // Either side going away ends both: a hook request the CLI aborts must look aborted to the server.
  const end = () => {
    inside.destroy();
    outside.destroy();
  };
  inside.once("close", end);
  outside.once("close", end);
  inside.once("error", end);
  outside.once("error", end);
});
server.listen(port, "127.0.0.1", () => writeFileSync(ready, String(port)));
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
