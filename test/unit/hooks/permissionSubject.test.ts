import { describe, expect, it } from "vitest";
import { permissionSubject } from "../../../src/core/hooks/permissionSubject";

describe("the subject of a permission request", () => {
  it("says what would be allowed", () => {
    expect(permissionSubject("Bash", { command: "rm -rf build", description: "Clean" })).toBe("Bash: rm -rf build");
    expect(permissionSubject("Write", { file_path: "/home/me/app/src/x.ts", content: "…" })).toBe("Write: /home/me/app/src/x.ts");
    expect(permissionSubject("WebFetch", { url: "https://example.com/a", prompt: "p" })).toBe("WebFetch: https://example.com/a");
    expect(permissionSubject("Grep", { pattern: "TODO", path: "/etc" })).toBe("Grep: TODO in /etc");
    expect(permissionSubject("mcp__arcadia__execute_command", { command: "ls" })).toBe('mcp__arcadia__execute_command: {"command":"ls"}');
    expect(permissionSubject("Bash", undefined)).toBe("Bash");
  });

  it("shows the whole command, its line breaks and escapes visible (see test/unit/security/hiddenApprovalText)", () => {
    expect(permissionSubject("Bash", { command: "set -e\nrm -rf build\nmake" })).toBe("Bash: set -e⏎rm -rf build⏎make");
    expect(permissionSubject("Bash", { command: "echo \u001b[31mred\u0007" })).toBe("Bash: echo \\u001B[31mred\\u0007");
    const long = permissionSubject("Bash", { command: `echo ${"😀".repeat(300)}` });
    expect(Array.from(long)).toHaveLength(6 + 5 + 300);
  });
});
