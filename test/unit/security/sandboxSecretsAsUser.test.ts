/**
 * /etc's secrets in a sandbox started by a normal user. The layout hides only the ones that user
 * can read (a hidden one costs bubblewrap a mount per command, for nothing where the command could
 * not read it anyway): here /etc/ssh (world-readable) is hidden, /etc/shadow (root:shadow 0640) is
 * not bound over. Either way an unasked command reads none of them; the control reads /etc/hostname.
 * Run as uid 65534 through setpriv (test/unit/security/support/asNormalUser.ts); the same secrets
 * as root are sandboxRootEscapes.test.ts's.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { sandboxAvailable } from "../../support/sandbox";
import { cannotRunAsUser, removeWorkspaces, runAsUser, workspaceOfUser } from "./support/asNormalUser";

vi.setConfig({ testTimeout: 60_000 });

const why = process.platform === "linux" && (await sandboxAvailable("secrets as a normal user")) ? cannotRunAsUser() : "no sandbox";
if (why !== undefined) console.warn(`secrets as a normal user: skipped: ${why}`);

afterEach(removeWorkspaces);

const ATTEMPTS = [
  "cat /etc/shadow >/dev/null 2>&1 && echo READ-SHADOW",
  "cat /etc/gshadow >/dev/null 2>&1 && echo READ-GSHADOW",
  "ls /etc/ssl/private/ >/dev/null 2>&1 && echo LISTED-SSL-PRIVATE",
  "cat /etc/ssh/*_key >/dev/null 2>&1 && echo READ-SSH-KEY",
  'test -n "$(ls -A /etc/ssh)" && echo SAW-ETC-SSH',
  "cat /etc/hostname >/dev/null && echo CONTROL-READ-ETC",
  "exit 0",
].join("; ");

describe.skipIf(why !== undefined)("/etc's secrets, the sandbox started by a normal user", () => {
  it("none is read; only the ones the user could read are bound over", () => {
    const { output, args } = runAsUser(workspaceOfUser(), ATTEMPTS);
    expect(output).toContain("CONTROL-READ-ETC");
    expect(output).not.toMatch(/READ-SHADOW|READ-GSHADOW|LISTED-SSL-PRIVATE|READ-SSH-KEY|SAW-ETC-SSH/);
    const joined = args.join(" ");
    expect(joined).toContain("--tmpfs /etc/ssh --remount-ro /etc/ssh");
    expect(joined).not.toContain("/dev/null /etc/shadow");
  });
});
