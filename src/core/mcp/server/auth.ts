/**
 * The bearer token that keeps other local processes (and other users on the machine) off the
 * server: 127.0.0.1 alone is reachable by anything running locally.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** 256 random bits, base64url: safe in a header and in a JSON config file. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Whether an `Authorization` header carries exactly `Bearer <token>`. The comparison runs on
 * SHA-256 digests, so it takes the same time whatever the length or the first wrong byte is.
 */
export function hasBearerToken(header: string | undefined, token: string): boolean {
  if (!header) return false;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match?.[1]) return false;
  return timingSafeEqual(digest(match[1]), digest(token));
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}
