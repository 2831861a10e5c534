/**
 * Whether commands can be confined here, and if not, why and what to do, in words for the panel.
 * Linux only (bubblewrap: namespaces, no daemon, no root); found on PATH or in /usr/bin, then
 * tried once for real (a container or a kernel setting can forbid the namespaces it needs). A
 * success is kept; a failure is tried again after a while, so installing bubblewrap needs no reload.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import which from "which";
import { bwrapArguments, SECCOMP_FD } from "./bwrapArguments";
import { unixSocketFilter } from "./unixSocketFilter";
import { layoutFromDisk } from "./layoutFromDisk";

export type SandboxAvailability = { available: true; bwrap: string } | { available: false; reason: string; fix: string };

const PROBE_DEADLINE_MS = 10_000;

const INSTALL =
  "Install bubblewrap — `sudo apt install bubblewrap` (Debian, Ubuntu), `sudo dnf install bubblewrap` (Fedora), " +
  "`sudo pacman -S bubblewrap` (Arch) — and Arcadia uses it from the next command on.";

export async function probeBubblewrap(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform = process.platform): Promise<SandboxAvailability> {
  if (platform !== "linux") {
    const where = platform === "darwin" ? "macOS" : platform === "win32" ? "Windows" : platform;
    return {
      available: false,
      reason: `Arcadia's sandbox runs on Linux (bubblewrap); there is none for ${where} yet`,
      fix: "Commands that would run in it ask you first instead.",
    };
  }
  const bwrap = (await which("bwrap", { path: env.PATH ?? "", nothrow: true })) ?? (await which("bwrap", { path: "/usr/bin:/bin", nothrow: true }));
  if (!bwrap) return { available: false, reason: "bubblewrap (bwrap), the sandbox Arcadia runs commands in, is not installed", fix: INSTALL };
  const folder = await mkdtemp(join(tmpdir(), "arcadia-sandbox-probe-"));
  try {
    const layout = await layoutFromDisk({ cwd: folder, writable: [], readable: [folder], home, env });
    const failure = await run(bwrap, [...bwrapArguments(layout), "--", "true"], unixSocketFilter());
    if (failure === undefined) return { available: true, bwrap };
    return {
      available: false,
      reason: `bubblewrap (${bwrap}) cannot make its sandbox here: ${failure}`,
      fix:
        "Unprivileged user namespaces are probably off: a container without them, `sysctl kernel.unprivileged_userns_clone=1`, " +
        "or on Ubuntu 24.04 an AppArmor profile for bwrap (the distribution's bubblewrap package has one).",
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Undefined when it ran and exited 0, else what went wrong in a line. */
function run(file: string, args: string[], seccomp: Uint8Array): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ["ignore", "ignore", "pipe", "pipe"] });
    const filter = child.stdio[SECCOMP_FD] as NodeJS.WritableStream & { on: (e: "error", f: () => void) => void };
    filter.on("error", () => undefined);
    filter.end(Buffer.from(seccomp));
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_DEADLINE_MS);
    child.once("error", (err) => {
      clearTimeout(timer);
      resolve(err.message);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(undefined);
      const said = stderr.trim().split("\n")[0];
      resolve(said || (signal ? `it was stopped (${signal})` : `it exited with code ${code}`));
    });
  });
}
