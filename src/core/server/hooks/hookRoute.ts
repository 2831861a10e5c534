/**
 * The `/hooks` route of the embedded server: Claude Code's HTTP hooks (`type: "http"` in a
 * `--settings` file) POST their hook input here, and the JSON we answer is read like a command
 * hook's stdout. It runs after the server's Host/Origin and agent-token checks (checkedHttpServer.ts),
 * like `/mcp`; this file adds the body cap, the shape check, and an AbortSignal for a request the
 * CLI gives up on. What the answer is comes from the endpoint (core/hooks/permissionBroker.ts).
 *
 * Malformed requests get a 4xx with a message and never reach the handler; a handler that throws
 * gets a 500. The CLI treats any non-2xx answer as "no decision" (and prints "hook failed" in the
 * terminal), so a bad hook request can never decide a permission prompt by accident. An input
 * over the body cap gets an empty answer (no decision), logged, and no error in the terminal.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Route } from "../checkedHttpServer";
import { readBody } from "../requestBody";
import { sendJson } from "../sendJson";
import { errorMessage } from "../../util";
import { type HookInput, isHookEventName } from "./hookEvents";

export const HOOKS_PATH = "/hooks";

export type { HookInput } from "./hookEvents";

export interface HookRequest {
  /** The agent the request authenticated as (its own token, auth.ts). */
  agentId: string;
  input: HookInput;
  /** Aborted when the connection closes before we answer: the CLI gave up on the hook (Escape at
   * the permission prompt does this; answering "Yes" in the terminal does not), or it exited. */
  signal: AbortSignal;
}

/** Answers one hook request with the JSON object the CLI reads (`{}`: nothing to say). */
export type HookEndpoint = (request: HookRequest) => Promise<object> | object;

export interface HookRouteOptions {
  endpoint: HookEndpoint;
  maxBodyBytes: number;
  log: (message: string) => void;
}

export function hookRoute(opts: HookRouteOptions): Route {
  return { path: HOOKS_PATH, handle: (req, res, { agentId }) => handleHookRequest(req, res, agentId, opts) };
}

/** `agentId`: authenticated by the server before the route runs. */
async function handleHookRequest(req: IncomingMessage, res: ServerResponse, agentId: string, { endpoint, maxBodyBytes, log }: HookRouteOptions): Promise<void> {
  if (req.method !== "POST") {
    sendJson(res, 405, { error: `Method ${req.method ?? "?"} not allowed: hooks POST their input to ${HOOKS_PATH}` }, { allow: "POST" });
    return;
  }
  const body = await readBody(req, maxBodyBytes);
  if (body.kind === "tooLarge") {
    // The real CLI can send this (a PostToolUse with a huge tool_response, a Write of a huge
    // file), and it prints every non-2xx answer in the terminal as "hook failed": answer
    // "nothing to say" instead, so its own prompt and tools carry on untouched.
    log(`Hook input larger than ${maxBodyBytes} bytes: answered with no decision`);
    sendJson(res, 200, {}, { connection: "close" });
    return;
  }
  const input = parseHookInput(body.text);
  if (typeof input === "string") {
    log(`Hook request refused: ${input}`);
    sendJson(res, 400, { error: `Bad hook request: ${input}` });
    return;
  }

  // The signal is made only for an endpoint that reads it (a permission request waits for the user;
  // most hooks are answered at once): an AbortController a request was a tenth of a hook's cost.
  let aborted: AbortController | undefined;
  let gone = false;
  res.once("close", () => {
    if (res.writableEnded) return;
    gone = true;
    aborted?.abort();
  });
  const request: HookRequest = {
    agentId,
    input,
    get signal() {
      if (!aborted) {
        aborted = new AbortController();
        if (gone) aborted.abort();
      }
      return aborted.signal;
    },
  };
  let answer: object;
  try {
    answer = await endpoint(request);
  } catch (err) {
    log(`Hook ${input.hook_event_name} failed: ${errorMessage(err)}`);
    sendJson(res, 500, { error: "Internal error while handling the hook" });
    return;
  }
  if (res.destroyed || res.writableEnded) return;
  sendJson(res, 200, answer);
}

/** The hook input, or why it is not one. */
function parseHookInput(text: string): HookInput | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "the body is not JSON";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "the body is not a JSON object";
  const fields = value as Record<string, unknown>;
  if (typeof fields.hook_event_name !== "string" || fields.hook_event_name === "") return "no hook_event_name (string) in the body";
  if (typeof fields.session_id !== "string" || fields.session_id === "") return "no session_id (string) in the body";
  // Only the events Arcadia's settings file registers (hookEvents.ts) are ever sent here.
  if (!isHookEventName(fields.hook_event_name)) return `hook_event_name ${JSON.stringify(fields.hook_event_name.slice(0, 40))} is not one Arcadia listens to`;
  return fields as HookInput;
}
