// Is this process inside a loopback-only network namespace? code-server, Chromium (and later the
// CLI and its model server) may only run there, so nothing they do can reach another host.
//
// Why /proc/self/net/dev and not /sys/class/net: after `unshare -n` alone (no new mount
// namespace) sysfs still shows the host's interfaces; /proc/self/net follows the caller's
// network namespace.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

export type Isolation = { ok: true } | { ok: false; reason: string };

/** Network interfaces visible to this process. */
export function visibleInterfaces(): string[] {
  return readFileSync("/proc/self/net/dev", "utf8")
    .split("\n")
    .slice(2)
    .map((line) => line.split(":")[0]!.trim())
    .filter(Boolean);
}

function loopbackUp(): boolean {
  const ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip"].find((p) => existsSync(p)) ?? "ip";
  const out = execFileSync(ip, ["-o", "link", "show", "lo"], { encoding: "utf8" });
  return /[<,]UP[,>]/.test(out);
}

export function isolation(): Isolation {
  if (process.platform !== "linux") return { ok: false, reason: `platform ${process.platform} has no network namespaces` };
  // Set by scripts/e2e/run-in-netns.sh when it could not create the namespace.
  const launcherError = process.env.ARCADIA_E2E_NETNS_ERROR;
  if (launcherError) return { ok: false, reason: launcherError };
  const others = visibleInterfaces().filter((i) => i !== "lo");
  if (others.length > 0) {
    return {
      ok: false,
      reason:
        `this process sees the network interfaces ${others.join(", ")}, so it is not in a loopback-only namespace; ` +
        "run the end-to-end tests through scripts/e2e/run-in-netns.sh (npm run test:e2e)",
    };
  }
  try {
    if (!loopbackUp()) return { ok: false, reason: "the loopback interface is down (run-in-netns.sh brings it up with `ip link set lo up`)" };
  } catch (err) {
    return { ok: false, reason: `cannot check the loopback interface: ${(err as Error).message}` };
  }
  return { ok: true };
}

/** Throws, saying why, unless this process is in a loopback-only namespace. */
export function requireIsolation(): void {
  const iso = isolation();
  if (!iso.ok) throw new Error(`refusing to start VS Code and Chromium outside a loopback-only network namespace: ${iso.reason}`);
}
