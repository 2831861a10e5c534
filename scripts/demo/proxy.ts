// The browser's way in: a TCP listener on 127.0.0.1:<port> in the host's network namespace that
// pipes each connection, byte for byte, to code-server's unix socket inside the demo's namespace
// (a socket file is reachable across network namespaces; a TCP port is not). HTTP and WebSockets
// pass alike. Only the head of a connection's first request is read, for the gate (gate.ts).
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { checkRequest, httpResponse } from "./gate";

const MAX_HEAD = 32 * 1024;

export interface Proxy {
  port: number;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** 0: any free port. */
  port: number;
  /** The run's access token (gate.ts). */
  token: string;
  /** Asked per connection: the port is taken before the run's folder (and socket) exists. */
  socketPath: () => string | undefined;
}

/** Listens on 127.0.0.1 only. Rejects with a readable message if the port is taken. */
export async function startProxy(opts: ProxyOptions): Promise<Proxy> {
  const open = new Set<Socket>();
  let port = opts.port;
  const track = (s: Socket) => {
    open.add(s);
    s.on("close", () => open.delete(s));
  };

  const server: Server = createServer((client) => {
    track(client);
    client.on("error", () => client.destroy());
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) {
        if (head.length > MAX_HEAD) client.end(httpResponse(431, "Request Header Fields Too Large", "Request headers too large\n"));
        return;
      }
      client.off("data", onData);
      client.pause();
      const decision = checkRequest(head.subarray(0, end).toString("latin1"), { port, token: opts.token });
      if (decision.kind === "reply") client.end(decision.response);
      else pipeToCodeServer(client, head);
    };
    client.on("data", onData);
  });

  const pipeToCodeServer = (client: Socket, head: Buffer) => {
    const path = opts.socketPath();
    if (!path) return void client.end(NOT_READY);
    const upstream = createConnection(path);
    track(upstream);
    let connected = false;
    upstream.once("connect", () => {
      connected = true;
      upstream.write(head);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    upstream.on("error", () => {
      // code-server not listening yet: say so (a bare reset leaves fetch() hanging and shows the
      // browser an error page). Later, one side failing just ends the pair.
      if (!connected) client.end(NOT_READY);
      else client.destroy();
      upstream.destroy();
    });
    client.on("close", () => upstream.destroy());
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE") reject(new Error(`port ${opts.port} on 127.0.0.1 is already in use; pick another with --port N (or ARCADIA_DEMO_PORT=N), or 0 for any free port`));
      else if (err.code === "EACCES") reject(new Error(`port ${opts.port} needs privileges; pick one above 1023 with --port N`));
      else reject(err);
    });
    server.listen(opts.port, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address && typeof address === "object") port = address.port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const NOT_READY = httpResponse(503, "Service Unavailable", "The Arcadia demo is still starting; reload in a few seconds.\n", { "retry-after": "2" });
