/**
 * bubblewrap's command line for a layout (everything before `--` and the program). Pure.
 *
 * Every namespace bubblewrap can make is new: user (the command runs as the layout's user, never
 * root, with every capability dropped, and can make no user namespace of its own: bubblewrap
 * started by root otherwise keeps them all, and `umount .git` or a read-write remount would
 * undo the layout), mount (only the layout's paths exist), pid (other processes,
 * and their /proc, invisible), network (no interface but a loopback of its own: no socket reaches
 * the host or beyond, Arcadia's own server included; unix sockets refused by a seccomp filter,
 * unixSocketFilter.ts), IPC, UTS and cgroup; its in-memory folders sized (limits.ts). The environment is
 * cleared and set from the layout. `--die-with-parent`: the sandbox dies with the extension host.
 * No `--new-session`: the command stays in the process group the runner signals (Ctrl+C); it has
 * no controlling terminal to push keystrokes into (TIOCSTI), the reason bubblewrap offers it.
 */
import { LIMITS } from "./limits";
import type { Mount, SandboxLayout } from "./sandboxLayout";

const NAMESPACES = ["--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try"];

/** The file descriptor bubblewrap reads the seccomp filter from (unixSocketFilter.ts); whoever starts it writes the filter there. */
export const SECCOMP_FD = 3;

export function bwrapArguments(layout: SandboxLayout): string[] {
  const user = layout.user ?? { uid: 65534, gid: 65534 };
  const args = [
    ...NAMESPACES,
    ...(layout.network ? [] : ["--unshare-net"]),
    "--uid",
    String(user.uid),
    "--gid",
    String(user.gid),
    "--cap-drop",
    "ALL",
    "--disable-userns",
    "--die-with-parent",
    "--clearenv",
    "--seccomp",
    String(SECCOMP_FD),
  ];
  for (const [name, value] of Object.entries(layout.env)) args.push("--setenv", name, value);
  const pins = [...(layout.pins ?? [])].sort((a, b) => depth(a) - depth(b));
  for (const mount of orderedMounts(layout.mounts)) {
    args.push(...mountArguments(mount));
    if (mount.kind === "writable") args.push(...pinArguments(mount.path, pins));
  }
  args.push("--proc", "/proc", "--dev", "/dev", "--chdir", layout.cwd);
  return args;
}

/**
 * The pins under a writable root, then the root bound again over them ("cover", as
 * @anthropic-ai/sandbox-runtime does): each pinned folder is a mount point in the sandbox, which
 * the kernel refuses to rename or remove, while lookups go through the cover, so the folders stay
 * writable. Without a pin, `mv sub x; mkdir -p sub/.git` would make a repository of the command's
 * own beside the read-only `.git` it moved aside.
 */
function pinArguments(root: string, pins: readonly string[]): string[] {
  const mine = pins.filter((pin) => pin !== root && pin.startsWith(`${root}/`));
  if (mine.length === 0) return [];
  return [...mine.flatMap((pin) => ["--ro-bind", pin, pin]), "--bind", root, root];
}

/**
 * One mount per path (a later one for the same path wins: a workspace folder both readable and
 * writable is writable), shallower paths first: a folder's mount must exist before what is
 * mounted inside it, and a mount made later over a path hides the earlier one there.
 */
export function orderedMounts(mounts: readonly Mount[]): Mount[] {
  const byPath = new Map<string, Mount>();
  for (const mount of mounts) {
    byPath.delete(mount.path);
    byPath.set(mount.path, mount);
  }
  // Array.prototype.sort is stable: equal depths keep their order.
  return [...byPath.values()].sort((a, b) => depth(a.path) - depth(b.path));
}

function depth(path: string): number {
  return path.split("/").filter(Boolean).length;
}

function mountArguments(mount: Mount): string[] {
  switch (mount.kind) {
    case "readOnly":
      return ["--ro-bind", mount.source ?? mount.path, mount.path];
    case "writable":
      return ["--bind", mount.path, mount.path];
    case "scratch":
      // Sized: an in-memory folder is the host's memory (limits.ts).
      return ["--size", String(LIMITS.scratchBytes), "--tmpfs", mount.path];
    case "emptyFolder":
      return ["--tmpfs", mount.path, "--remount-ro", mount.path];
    case "emptyFile":
      return ["--ro-bind", "/dev/null", mount.path];
    case "symlink":
      return ["--symlink", mount.target, mount.path];
  }
}
