// The demo's command line: `npm run demo [-- --port N] [-- --keep]`.
export interface Options {
  port: number;
  keep: boolean;
}

export function parseArgs(argv: string[]): Options {
  let port = process.env.ARCADIA_DEMO_PORT ? Number(process.env.ARCADIA_DEMO_PORT) : 0;
  let keep = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    // `npm run demo -- --port 8123 -- --keep` hands the second `--` on: a separator, not an argument.
    if (a === "--") continue;
    else if (a === "--keep") keep = true;
    else if (a === "--port") port = Number(argv[++i]);
    else if (a.startsWith("--port=")) port = Number(a.slice("--port=".length));
    else if (a === "--help" || a === "-h") {
      process.stdout.write("npm run demo [-- --port N] [-- --keep]\n  --port N  listen on 127.0.0.1:N (default: a free port; or ARCADIA_DEMO_PORT)\n  --keep    keep the run's temp folder (workspace, logs) after stopping\n");
      process.exit(0);
    } else throw new Error(`unknown argument ${a} (try --help)`);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port wants a number from 0 to 65535`);
  return { port, keep };
}
