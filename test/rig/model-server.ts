// A scripted stand-in for the Anthropic Messages API, written from scratch for tests. It speaks
// just enough of the streaming protocol for the Claude Code CLI: SSE replies to
// `POST /v1/messages`, `count_tokens`, and the `HEAD /` pre-connect. Replies come from a Script
// (see script.ts); every request is recorded so tests can check what the CLI sent.
import { appendFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  assistantCount,
  exampleForSchema,
  firstUserText,
  lastUserText,
  selectReply,
  type MessagesRequestBody,
  type Script,
  type Step,
  slowReplyDelay,
  withWorkingDirectory,
  workingDirectory,
} from "./script.js";

export type { Conversation, Script, Step, ToolCall } from "./script.js";

export interface RecordedRequest {
  time: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** A summary, not the whole body: bodies carry the full system prompt and tool list. */
  body?: {
    model?: string;
    stream?: boolean;
    tools: number;
    messages: number;
    assistantMessages: number;
    firstUserText: string;
    /** The last user message's text (a prompt typed mid-conversation), its first 4,000 characters. */
    lastUserText: string;
    lastRole?: string;
    outputFormat?: boolean;
  };
  reply: string;
  status: number;
}

export interface ModelServer {
  port: number;
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface ModelServerOptions {
  script: Script;
  port?: number;
  /** Appends one JSON line per request: the server often runs in another process/namespace. */
  logFile?: string;
}

const KEPT_HEADERS = ["x-claude-code-session-id", "anthropic-beta", "anthropic-version", "user-agent", "x-app"];

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  // Failures already served per (conversation, step): the only state, so httpError steps can
  // fail N times and then succeed while selection itself stays stateless.
  const failures = new Map<string, number>();
  let nextId = 1;
  // Ids of scripted steps are derived from (session, conversation, step, block): unique across
  // the several servers of one rig and across sessions, and the same on a retried request.
  // Side and fallback replies just count.
  const idsFor = (sessionHeader: string | undefined, where: string) => {
    const session = (sessionHeader ?? "").replace(/[^0-9a-f]/gi, "").slice(0, 8) || "nosessn0";
    return (prefix: string, block?: number) => `${prefix}_01arcadia${session}${where}${block === undefined ? "" : `b${block}`}`;
  };
  const counterIds = (prefix: string) => `${prefix}_01arcadia${String(nextId++).padStart(8, "0")}`;

  const record = (entry: RecordedRequest) => {
    requests.push(entry);
    if (options.logFile) appendFileSync(options.logFile, JSON.stringify(entry) + "\n");
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const headers: Record<string, string> = {};
    for (const h of KEPT_HEADERS) {
      const v = req.headers[h];
      if (typeof v === "string") headers[h] = v;
    }
    const base = { time: new Date().toISOString(), method: req.method ?? "", path: url.pathname + url.search, headers };
    const raw = await readBody(req);

    if (req.method === "HEAD" || (req.method === "GET" && url.pathname === "/")) {
      res.writeHead(200).end();
      record({ ...base, reply: "preconnect", status: 200 });
      return;
    }
    if (req.method !== "POST") {
      sendJson(res, 404, apiError(404, "not_found_error", `no route ${req.method} ${url.pathname}`));
      record({ ...base, reply: "404", status: 404 });
      return;
    }
    let body: MessagesRequestBody;
    try {
      body = JSON.parse(raw || "{}") as MessagesRequestBody;
    } catch {
      sendJson(res, 400, apiError(400, "invalid_request_error", "body is not JSON"));
      record({ ...base, reply: "bad json", status: 400 });
      return;
    }
    const summary = summarize(body);

    if (url.pathname === "/v1/messages/count_tokens") {
      // A rough count is enough: the CLI uses it only for context-size estimates.
      sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(raw.length / 4)) });
      record({ ...base, body: summary, reply: "count_tokens", status: 200 });
      return;
    }
    if (url.pathname !== "/v1/messages") {
      sendJson(res, 404, apiError(404, "not_found_error", `no route POST ${url.pathname}`));
      record({ ...base, body: summary, reply: "404", status: 404 });
      return;
    }

    const selection = selectReply(options.script, body);
    // Where the reply goes in the conversation: the step index, except in a `perPrompt`
    // conversation whose steps repeat every prompt, where ids must still differ per reply.
    const position = assistantCount(body);
    let step: Step;
    let label: string;
    if (selection.kind === "side") {
      const format = body.output_config?.format;
      const text = format?.schema ? JSON.stringify(exampleForSchema(format.schema)) : "Scripted session";
      step = { text };
      label = `side:${selection.reason}`;
    } else if (selection.kind === "sideQuery") {
      step = selection.step;
      label = `sideQuery${selection.index}`;
    } else if (selection.kind === "fallback") {
      step = { text: options.script.fallbackText ?? "OK." };
      label = `fallback:${selection.reason}`;
    } else {
      step = selection.step;
      label = `conv${selection.conversation}/step${selection.index}`;
      // Unwrap httpError steps: fail until this (conversation, position) has failed `times` times.
      while ("httpError" in step) {
        const key = `${selection.conversation}/${position}/${label}`;
        const served = failures.get(key) ?? 0;
        if (served < step.times) {
          failures.set(key, served + 1);
          sendHttpError(res, step.httpError, step.headers, step.message);
          record({ ...base, body: summary, reply: `${label}:error${step.httpError}#${served + 1}`, status: step.httpError });
          return;
        }
        label += "/then";
        step = step.then;
      }
    }
    record({ ...base, body: summary, reply: label, status: 200 });
    const ids =
      selection.kind === "step"
        ? idsFor(headers["x-claude-code-session-id"], `c${selection.conversation}s${position}`)
        : (prefix: string) => counterIds(prefix);
    const inputTokens = options.script.usage === "fromRequestSize" ? Math.ceil(raw.length / 4) : 100;
    const message = buildMessage(withWorkingDirectory(step, workingDirectory(body)), body.model ?? "claude-scripted", ids, inputTokens);
    const delayMs = slowReplyDelay(options.script, body) ?? step.delayMs ?? 0;
    if (body.stream) await streamMessage(res, message, delayMs, step.blockDelayMs ?? 0);
    else sendJson(res, 200, message);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, apiError(500, "api_error", String(err)));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function summarize(body: MessagesRequestBody): RecordedRequest["body"] {
  const messages = body.messages ?? [];
  return {
    model: body.model,
    stream: body.stream,
    tools: Array.isArray(body.tools) ? body.tools.length : 0,
    messages: messages.length,
    assistantMessages: assistantCount(body),
    firstUserText: firstUserText(body).trim().slice(0, 200),
    lastUserText: lastUserText(body).slice(0, 4000),
    lastRole: messages.at(-1)?.role,
    outputFormat: body.output_config?.format ? true : undefined,
  };
}

type Block = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown };

interface Message {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: Block[];
  stop_reason: "end_turn" | "tool_use";
  stop_sequence: null;
  usage: Usage;
}

interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

function buildMessage(
  step: Exclude<Step, { httpError: unknown }>,
  model: string,
  newId: (prefix: string, block?: number) => string,
  inputTokens: number,
): Message {
  const content: Block[] = [];
  let stop: Message["stop_reason"] = "end_turn";
  if ("tools" in step) {
    if (step.text) content.push({ type: "text", text: step.text });
    for (const tool of step.tools) {
      content.push({ type: "tool_use", id: tool.id ?? newId("toolu", content.length), name: tool.name, input: tool.input ?? {} });
    }
    stop = "tool_use";
  } else {
    content.push({ type: "text", text: step.text });
  }
  const outputTokens = content.reduce((n, b) => n + Math.ceil(JSON.stringify(b).length / 4), 0);
  return {
    id: newId("msg"),
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: inputUsage(inputTokens, outputTokens),
  };
}

/** 100 tokens or fewer: all uncached (the fixed test value). More: ~95 % read from the prompt cache, as in a real session. */
function inputUsage(inputTokens: number, outputTokens: number): Usage {
  const uncached = inputTokens <= 100 ? inputTokens : Math.ceil(inputTokens * 0.05);
  return { input_tokens: uncached, output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: inputTokens - uncached };
}

/** Streams a message as SSE, the way the real API does: text in a few deltas, tool input as
 * partial JSON. `delayMs` is spent after message_start so the CLI sees a slow, live stream. */
async function streamMessage(res: ServerResponse, message: Message, delayMs: number, blockDelayMs: number): Promise<void> {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
    "request-id": `req_${message.id}`,
  });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send("message_start", {
    type: "message_start",
    message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...message.usage, output_tokens: 1 } },
  });
  send("ping", { type: "ping" });
  if (delayMs > 0) await sleep(delayMs);
  for (const [index, block] of message.content.entries()) {
    if (block.type === "text") {
      send("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      for (const piece of chunks(block.text, 3)) {
        send("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
      }
    } else {
      send("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      for (const piece of chunks(JSON.stringify(block.input), 2)) {
        send("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } });
      }
    }
    send("content_block_stop", { type: "content_block_stop", index });
    if (blockDelayMs > 0) await sleep(blockDelayMs);
  }
  send("message_delta", {
    type: "message_delta",
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  send("message_stop", { type: "message_stop" });
  res.end();
}

/** Splits a string into about `n` pieces (at least one, possibly empty). */
function chunks(text: string, n: number): string[] {
  if (text.length === 0) return [""];
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  404: "not_found_error",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

function apiError(status: number, type: string | undefined, message: string) {
  return { type: "error", error: { type: type ?? ERROR_TYPES[status] ?? "api_error", message } };
}

/** `headers` override the defaults, e.g. a usage limit's `anthropic-ratelimit-unified-*` and `x-should-retry: false`. */
function sendHttpError(res: ServerResponse, status: 400 | 429 | 500 | 529, headers: Record<string, string> = {}, message?: string): void {
  const body = JSON.stringify(apiError(status, ERROR_TYPES[status], message ?? `Scripted ${status} error`));
  res.writeHead(status, {
    "content-type": "application/json",
    "retry-after": "0",
    "x-should-retry": "true",
    "request-id": `req_error_${status}`,
    ...headers,
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
