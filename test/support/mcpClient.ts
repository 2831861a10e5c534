/**
 * The SDK's Streamable HTTP client transport as the tests, the bench and the soak use it, with one
 * change: each request gets a signal of its own that follows the transport's.
 *
 * Why: the SDK hands its transport's one AbortController signal to every fetch, and Node's fetch
 * (undici) adds an abort listener to that signal per request, removed only once the request is
 * garbage collected. 1,000 client-cancelled calls (a POST and a cancel notification each) left
 * 2,003 listeners on it, and Node printed a MaxListenersExceededWarning for each one past 1,500.
 * The leak is the client's (Arcadia's server keeps nothing per call); Claude Code is a client of
 * its own. AbortSignal.any() follows the transport's signal through a weak reference, not a
 * listener on it, so closing the client still aborts what is in flight.
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export function clientTransport(url: string, headers: Record<string, string>): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    fetch: (input, init) => fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal]) : init?.signal }),
  });
}

/** The transport's own signal, which every request used to add a listener to (for the test that counts them). */
export function transportSignal(transport: StreamableHTTPClientTransport): AbortSignal | undefined {
  return (transport as unknown as { _abortController?: AbortController })._abortController?.signal;
}
