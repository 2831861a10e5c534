import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { locateClaude } from "../../src/vscode/launch/claudeLocator";
import { useTempDirs } from "../support/tempDir";

const tempDir = useTempDirs();

describe("locateClaude", () => {
  it("finds claude on the PATH", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "claude"), "#!/bin/sh\n");
    chmodSync(join(dir, "claude"), 0o755);
    expect(await locateClaude("", dir)).toEqual({ ok: true, command: "claude" });
  });

  it("says how to install it, or where to set it, when it is missing", async () => {
    const result = await locateClaude("", tempDir());
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/npm install -g @anthropic-ai\/claude-code.*arcadia\.claudePath/);
  });

  it("checks a configured path and names the setting when it is wrong", async () => {
    const result = await locateClaude("/nowhere/claude", "");
    expect(!result.ok && result.message).toMatch(/not found at \/nowhere\/claude \(setting arcadia\.claudePath\)/);
  });
});
