import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOK_TIMEOUTS_S, writeHookSettingsFile } from "../../../src/core/hooks/hookSettingsFile";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

describe("the --settings file of a launched agent", () => {
  it("registers HTTP hooks to Arcadia's server with the token and the agent id, each with a timeout", async () => {
    const file = await writeHookSettingsFile("http://127.0.0.1:4321/hooks", "s3cret", "agent-7", tempDir());
    const settings = JSON.parse(readFileSync(file.path, "utf8")) as { hooks: Record<string, { matcher?: string; hooks: unknown[] }[]> };
    expect(Object.keys(settings)).toEqual(["hooks", "permissions"]);
    // Arcadia's own tools gate themselves on the card; nothing else is pre-allowed.
    expect((settings as unknown as { permissions: unknown }).permissions).toEqual({ allow: ["mcp__arcadia"] });
    expect(Object.keys(settings.hooks).sort()).toEqual(["PermissionDenied", "PermissionRequest", "PostCompact", "PostToolUse", "PostToolUseFailure", "PreCompact", "PreToolUse"]);
    for (const [event, groups] of Object.entries(settings.hooks)) {
      expect(groups).toEqual([
        {
          hooks: [
            {
              type: "http",
              url: "http://127.0.0.1:4321/hooks",
              headers: { Authorization: "Bearer s3cret", "x-arcadia-agent": "agent-7" },
              timeout: HOOK_TIMEOUTS_S[event as keyof typeof HOOK_TIMEOUTS_S],
            },
          ],
        },
      ]);
    }
    // The prompt waits long in the panel; the tool waits on the others, so they are short.
    expect(HOOK_TIMEOUTS_S.PermissionRequest).toBeGreaterThanOrEqual(600);
    expect(HOOK_TIMEOUTS_S.PreToolUse).toBeLessThanOrEqual(30);
  });

  it("with curl, the hooks that only tell are quiet async commands (exec form, the token in a 0600 headers file, never on a command line); PermissionRequest and PreToolUse stay http", async () => {
    const file = await writeHookSettingsFile("http://127.0.0.1:4321/hooks", "s3cret", "agent-7", tempDir(), "/usr/bin/curl");
    const text = readFileSync(file.path, "utf8");
    const settings = JSON.parse(text) as { hooks: Record<string, { hooks: Record<string, unknown>[] }[]> };
    for (const [event, [group]] of Object.entries(settings.hooks)) {
      const hook = group!.hooks[0]!;
      if (event === "PermissionRequest" || event === "PreToolUse") {
        expect(hook).toMatchObject({ type: "http", url: "http://127.0.0.1:4321/hooks" });
        continue;
      }
      expect(hook).toMatchObject({ type: "command", command: "/usr/bin/curl", async: true });
      const args = hook.args as string[];
      expect(args.at(-1)).toBe("http://127.0.0.1:4321/hooks");
      expect(args.join(" ")).not.toContain("s3cret");
      const headersFile = args[args.indexOf("-H", args.indexOf("Content-Type: application/json")) + 1]!.slice(1);
      expect(readFileSync(headersFile, "utf8")).toBe("Authorization: Bearer s3cret\nx-arcadia-agent: agent-7\n");
      expect(statSync(headersFile).mode & 0o777).toBe(0o600);
    }
  });

  it("is readable by the user only, in a folder of its own, and goes away with remove()", async () => {
    const parent = tempDir();
    const file = await writeHookSettingsFile("http://127.0.0.1:1/hooks", "t", "a", parent);
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file.path)).mode & 0o777).toBe(0o700);
    expect(dirname(dirname(file.path))).toBe(parent);
    await file.remove();
    expect(existsSync(file.path)).toBe(false);
    expect(existsSync(dirname(file.path))).toBe(false);
    await file.remove();
  });
});
