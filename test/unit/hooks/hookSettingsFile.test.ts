import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
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
    expect(Object.keys(settings.hooks).sort()).toEqual([
      "PermissionDenied",
      "PermissionRequest",
      "PostCompact",
      "PostToolUse",
      "PostToolUseFailure",
      "PreCompact",
      "PreToolUse",
    ]);
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

  const hooksOf = (path: string) => (JSON.parse(readFileSync(path, "utf8")) as { hooks: Record<string, { hooks: Record<string, unknown>[] }[]> }).hooks;

  it("with curl, the hooks that only tell are quiet async commands (exec form, the token in a 0600 headers file, never on a command line); PermissionRequest stays http, and PreToolUse too without sh", async () => {
    const file = await writeHookSettingsFile("http://127.0.0.1:4321/hooks", "s3cret", "agent-7", tempDir(), "/usr/bin/curl");
    for (const [event, [group]] of Object.entries(hooksOf(file.path))) {
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

  it("with curl and sh, PreToolUse is a synchronous silent curl: the tool waits for it, it always exits 0 with no output, curl's argv passed as parameters", async () => {
    const file = await writeHookSettingsFile("http://127.0.0.1:4321/hooks", "s3cret", "agent-7", tempDir(), "/usr/bin/curl", "/bin/sh");
    const hooks = hooksOf(file.path);
    const pre = hooks.PreToolUse![0]!.hooks[0]!;
    expect(pre).toMatchObject({ type: "command", command: "/bin/sh", timeout: HOOK_TIMEOUTS_S.PreToolUse });
    expect(pre.async).toBeUndefined();
    const args = pre.args as string[];
    expect(args.slice(0, 4)).toEqual(["-c", '"$@" 2>/dev/null; exit 0', "arcadia-hook", "/usr/bin/curl"]);
    // Its answer reaches the CLI (a collision's "ask"), and only a 2xx one.
    expect(args).toContain("-f");
    expect(args).not.toContain("-o");
    expect(args.at(-1)).toBe("http://127.0.0.1:4321/hooks");
    expect(args.join(" ")).not.toContain("s3cret");
    // curl gives up before the CLI would time the hook out (a timeout is reported in the terminal).
    expect(Number(args[args.indexOf("-m") + 1])).toBeLessThan(HOOK_TIMEOUTS_S.PreToolUse);
    expect(hooks.PermissionRequest![0]!.hooks[0]).toMatchObject({ type: "http" });
    expect(hooks.PostToolUse![0]!.hooks[0]).toMatchObject({ type: "command", command: "/usr/bin/curl", async: true });
  });

  it("the silent script runs curl's argv as given, passes stdin through and its stdout back, and exits 0 with nothing on stderr even when curl fails", async () => {
    const file = await writeHookSettingsFile("http://127.0.0.1:9/hooks", "s3cret", "agent-7", tempDir(), process.execPath, "/bin/sh");
    const pre = hooksOf(file.path).PreToolUse![0]!.hooks[0]!;
    const [c, script, name] = pre.args as string[];
    // In place of curl, node writes what it got on stdin to a file, answers, complains and fails: the hook passes the answer only.
    const got = join(tempDir(), "stdin.txt");
    const input = '{"tool_input":{"command":"echo \'$(touch x)\' `id`"}}';
    const fakeCurl = [
      "-e",
      "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{require('fs').writeFileSync(process.argv[1],s);console.log('{}');console.error('boom');process.exit(7)})",
      got,
    ];
    const run = spawnSync("/bin/sh", [c!, script!, name!, process.execPath, ...fakeCurl], { input });
    expect({ status: run.status, stdout: run.stdout.toString(), stderr: run.stderr.toString() }).toEqual({ status: 0, stdout: "{}\n", stderr: "" });
    expect(readFileSync(got, "utf8")).toBe(input);
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

  it("a sandboxed agent's file also holds the CLI's sandbox settings, as given, beside the hooks", async () => {
    const sandbox = { enabled: true, failIfUnavailable: true, filesystem: { allowWrite: ["/w"] } };
    const file = await writeHookSettingsFile("http://127.0.0.1:1/hooks", "t", "a", tempDir(), undefined, undefined, sandbox);
    const settings = JSON.parse(readFileSync(file.path, "utf8")) as Record<string, unknown>;
    expect(Object.keys(settings)).toEqual(["hooks", "permissions", "sandbox"]);
    expect(settings.sandbox).toEqual(sandbox);
  });

  it("a sandboxed agent's permission requests go through curl, not http (the CLI sends http hooks through its sandbox proxy, which refuses loopback)", async () => {
    const plain = JSON.parse(
      readFileSync((await writeHookSettingsFile("http://127.0.0.1:1/hooks", "t", "a", tempDir(), "/usr/bin/curl", "/bin/sh")).path, "utf8"),
    );
    const sandboxed = JSON.parse(
      readFileSync((await writeHookSettingsFile("http://127.0.0.1:1/hooks", "t", "a", tempDir(), "/usr/bin/curl", "/bin/sh", { enabled: true })).path, "utf8"),
    );
    expect(plain.hooks.PermissionRequest[0].hooks[0]).toMatchObject({ type: "http" });
    const hook = sandboxed.hooks.PermissionRequest[0].hooks[0];
    expect(hook).toMatchObject({ type: "command", command: "/bin/sh", timeout: HOOK_TIMEOUTS_S.PermissionRequest });
    expect(hook.args).toEqual(expect.arrayContaining(["/usr/bin/curl", "--noproxy", "*", "-f", String(HOOK_TIMEOUTS_S.PermissionRequest - 1)]));
    expect(hook.async).toBeUndefined();
    // Without sh (Windows) it stays http: the terminal still asks.
    const noSh = JSON.parse(
      readFileSync((await writeHookSettingsFile("http://127.0.0.1:1/hooks", "t", "a", tempDir(), "/usr/bin/curl", undefined, { enabled: true })).path, "utf8"),
    );
    expect(noSh.hooks.PermissionRequest[0].hooks[0]).toMatchObject({ type: "http" });
  });
});
