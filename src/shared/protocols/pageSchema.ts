/**
 * What the pages' schemas share: a message's strict shape with the optional `requestId` of a
 * request, and the parse that keeps that id apart from the message. Every message from a page is
 * untrusted input (a page shows a transcript's text): parsed here, and ignored with a log line by
 * its host when it does not fit. Only the extension imports this file's values; the webview
 * imports its pages' types only, so zod never reaches a page's bundle.
 */
// zod/mini: the same validation, tree-shaken to ~20 KB instead of zod's ~500 KB, which the
// extension would otherwise load at every activation.
import * as z from "zod/mini";
import type { ParsedPageMessage } from "./pageProtocol";

/** An id a message names (an agent, a call, a prompt, a race…): bounded, never empty. */
export const boundedId = () => z.string().check(z.minLength(1), z.maxLength(200));

/** One message: `type` is its name, no field beyond `shape` and a request's id. */
export function pageMessage<const T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) {
  return z.strictObject({ ...shape, type: z.literal(type), requestId: z.optional(z.int().check(z.minimum(1), z.maximum(Number.MAX_SAFE_INTEGER))) });
}

type WithoutRequestId<T> = T extends unknown ? Omit<T, "requestId"> : never;

/**
 * True when a schema's messages (`Parsed`: its output, `requestId` aside) and a page's request map
 * (`Messages`) are the same set: a page file asserts it, so neither can gain a message alone.
 */
export type SameMessages<Parsed, Messages> = [WithoutRequestId<Parsed>] extends [Messages]
  ? [Messages] extends [WithoutRequestId<Parsed>]
    ? true
    : false
  : false;

/** Compiles only when `T` is true: how a page file states that its schema and its map agree. */
export type Holds<T extends true> = T;

/** A request's id on a message that did not fit, so its page still hears that it failed. */
function requestIdOf(raw: unknown): number | undefined {
  if (typeof raw !== "object" || raw === null || !Object.hasOwn(raw, "requestId")) return undefined;
  const id = (raw as { requestId: unknown }).requestId;
  return typeof id === "number" && Number.isSafeInteger(id) && id >= 1 ? id : undefined;
}

/** The parse of a page's messages; its schema is built on the first message, not when the extension loads (activation time). */
export function lazyPageParser<M>(build: () => z.ZodMiniType<M & { requestId?: number | undefined }>): (raw: unknown) => ParsedPageMessage<M> {
  let schema: z.ZodMiniType<M & { requestId?: number | undefined }> | undefined;
  return (raw) => {
    schema ??= build();
    const result = schema.safeParse(raw);
    if (!result.success) {
      const error = result.error.issues.map((i) => `${i.path.join(".") || "message"}: ${i.message}`).join("; ");
      return { ok: false, error, requestId: requestIdOf(raw) };
    }
    const { requestId, ...message } = result.data;
    return requestId === undefined ? { ok: true, message: message as M } : { ok: true, message: message as M, requestId };
  };
}
