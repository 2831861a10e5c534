/**
 * The seccomp filter reaches bubblewrap through a descriptor it reads to its end at once: read
 * from where it stands, the descriptor gives exactly the filter, and no file is left by any name
 * for anyone (a command, another program) to open or change. Where the folder cannot be used, no
 * descriptor: the runner falls back to a pipe.
 */
import { closeSync, readdirSync, readSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { seccompDescriptor, unixSocketFilter } from "../../../src/core/sandbox";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

describe("the seccomp filter's descriptor", () => {
  it("reads as the filter from its current position, with no file left by name", () => {
    const folder = tempDir();
    const filter = unixSocketFilter();
    const fd = seccompDescriptor(filter, folder);
    expect(fd).toBeTypeOf("number");
    try {
      const buffer = Buffer.alloc(filter.length + 16);
      // null: from the descriptor's own position, as bubblewrap's read() does.
      expect(readSync(fd!, buffer, 0, buffer.length, null)).toBe(filter.length);
      expect(new Uint8Array(buffer.subarray(0, filter.length))).toEqual(filter);
    } finally {
      closeSync(fd!);
    }
    expect(readdirSync(folder)).toEqual([]);
  });

  it("no descriptor where the folder cannot be used (the runner then writes a pipe)", () => {
    expect(seccompDescriptor(unixSocketFilter(), "/nonexistent-folder-for-arcadia")).toBeUndefined();
  });
});
