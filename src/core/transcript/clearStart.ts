/**
 * Whether a transcript file was started by `/clear`. Its first records are bookkeeping, a caveat,
 * then a user record with `<command-name>/clear</command-name>`. A file made by `--resume` or by
 * another window looks alike but lacks that record, so this is what tells them apart.
 */
import { open } from "node:fs/promises";
import { contentText, isObject } from "./recordShapes";
import { withoutBom } from "./parseLine";

/** The /clear record comes within the first few records; this much always covers them. */
const HEAD_BYTES = 64 * 1024;
const HEAD_RECORDS = 12;

export async function startsWithClear(path: string): Promise<boolean> {
  let head: string;
  try {
    const handle = await open(path, "r");
    try {
      const buf = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await handle.read(buf, 0, HEAD_BYTES, 0);
      head = buf.toString("utf8", 0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
  // Only complete lines: the last one may still be being written.
  const lines = head.split("\n").slice(0, -1).slice(0, HEAD_RECORDS);
  for (const line of lines) {
    if (!line.includes("/clear")) continue;
    try {
      const record: unknown = JSON.parse(withoutBom(line));
      if (!isObject(record) || record.type !== "user" || !isObject(record.message)) continue;
      if (contentText(record.message.content).includes("<command-name>/clear</command-name>")) return true;
    } catch {
      // A malformed line is not the /clear record.
    }
  }
  return false;
}
