// Command-line entry for the scripted model server, so it can run INSIDE the CLI's network
// namespace (a loopback-only namespace cannot be reached from the test process).
//   tsx test/rig/model-server-main.ts --script <json> --port-file <file> [--log <file>] [--port N]
// The port file is written (atomically, via rename) only once the server listens: the launcher
// waits for it before starting the CLI.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { startModelServer } from "./model-server.js";
import type { Script } from "./script.js";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const scriptFile = arg("--script");
const portFile = arg("--port-file");
if (!scriptFile || !portFile) {
  process.stderr.write("usage: model-server-main --script <json> --port-file <file> [--log <file>] [--port N]\n");
  process.exit(2);
}

// No top-level await: the package is not "type": "module", so tsx may load this as CommonJS.
async function main(scriptPath: string, portPath: string): Promise<void> {
  const script = JSON.parse(readFileSync(scriptPath, "utf8")) as Script;
  const server = await startModelServer({ script, port: Number(arg("--port") ?? 0), logFile: arg("--log") });
  writeFileSync(portPath + ".tmp", String(server.port));
  renameSync(portPath + ".tmp", portPath);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.on("SIGHUP", stop);
}

main(scriptFile, portFile).catch((err: unknown) => {
  process.stderr.write(`model server failed: ${String(err)}\n`);
  process.exit(1);
});
