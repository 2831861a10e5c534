/**
 * A sandboxed command's layout, read from the disk as it is now:
 * - system folders read-only (/usr, /etc but for its secrets, /opt; /bin, /lib… as the links or
 *   folders they are here);
 * - its own empty /tmp, /var/tmp and HOME (the user's home is not there: keys, tokens, other
 *   projects);
 * - the programs it may need read-only: every folder on PATH (at its own place, also when it is a
 *   link) and the Node.js installation the `node` on PATH belongs to (nvm, fnm, volta keep it in
 *   the home folder), plus what the user lists in arcadia.sandbox.readablePaths;
 * - the workspace: `readable` folders read-only, `writable` ones writable but for their protected
 *   places (protectedPlaces.ts), a missing one of which is covered by an empty read-only folder.
 * - who it runs as: the host's user, or nobody when that is root (insideUser).
 * Paths arrive as real paths (symlinks resolved) from the caller; PATH entries are resolved here.
 */
import { accessSync, constants, readlinkSync, realpathSync } from "node:fs";
import { basename, delimiter, dirname, isAbsolute, join } from "node:path";
import { isInside } from "../util";
import { HOME_SECRETS } from "../util";
import { ETC_SECRETS } from "./protectedNames";
import type { FolderWalks } from "./folderWalks";
import { protectedPlaces } from "./protectedPlaces";
import type { Mount, SandboxLayout } from "./sandboxLayout";
import { sandboxEnvironment } from "./sandboxEnvironment";
import { isFolderNow, kindNow, type PathKind } from "./pathKind";
import { launchMoment } from "./unreadableFolders";

export interface SandboxRequest {
  /** The command's folder (a real path inside `writable` or `readable`). */
  cwd: string;
  /** Real paths the command may write: the agent's worktree, else the workspace folders. */
  writable: readonly string[];
  /** Real paths it may only read: the other workspace folders, arcadia.sandbox.readablePaths. */
  readable: readonly string[];
  home: string;
  env: NodeJS.ProcessEnv;
  /** Whether a path is a stand-in held for another command (standIns.ts); default: none is. */
  isStandIn?: (path: string) => boolean;
  /** Keep the host's network (default: none, only a loopback of its own). */
  network?: boolean;
  /** The records the walk for nested repositories believes (folderWalks.ts; default: the extension host's). */
  walks?: FolderWalks;
  /** Who starts the sandbox (default: this process). */
  hostUser?: { uid: number; gid: number };
}

/** Who a command started by root is inside: nobody (65534), with no capability. */
export const UNPRIVILEGED = { uid: 65534, gid: 65534 };

function hostUser(): { uid: number; gid: number } {
  return { uid: process.getuid?.() ?? UNPRIVILEGED.uid, gid: process.getgid?.() ?? UNPRIVILEGED.gid };
}

/**
 * The same user as outside, but never root: root inside a user namespace still holds every
 * capability over the sandbox's own mounts (umount .git, remount read-write), so a command
 * started by root runs as nobody.
 */
export function insideUser(host: { uid: number; gid: number }): { uid: number; gid: number } {
  return host.uid === 0 ? UNPRIVILEGED : host;
}

/** Read-only when they exist: where a system keeps its programs, libraries and settings. */
const SYSTEM_FOLDERS = ["/usr", "/etc", "/opt", "/nix/store"];
/** Links into /usr on merged-/usr systems, folders elsewhere. */
const TOP_LEVEL_LINKS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

export async function layoutFromDisk(request: SandboxRequest): Promise<SandboxLayout> {
  // Before anything is looked at: a folder born after this is the command's (unreadableFolders.ts).
  const since = launchMoment();
  const home = isAbsolute(request.home) && request.home !== "/" ? request.home : undefined;
  const roots = [...request.readable, ...request.writable];
  const homeIsBound = home !== undefined && roots.some((folder) => isInside(home, folder));
  const system = systemMounts();
  const tools = toolFolders(request.env.PATH ?? "", home, roots);
  const places = await protectedPlaces(request.writable, request.isStandIn ?? (() => false), request.walks);
  const homeSecrets = homeIsBound ? HOME_SECRETS.flatMap((secret) => hidden(join(home, secret))) : [];

  const mounts: Mount[] = [...system.mounts];
  mounts.push({ kind: "scratch", path: "/tmp" }, { kind: "scratch", path: "/var/tmp" });
  if (home && !system.folders.some((folder) => isInside(home, folder))) mounts.push({ kind: "scratch", path: home });
  const covered = (path: string) => [...system.folders, ...roots].some((folder) => isInside(path, folder));
  for (const tool of tools) if (!covered(tool.path)) mounts.push(tool);
  for (const folder of request.readable) mounts.push({ kind: "readOnly", path: folder });
  for (const folder of request.writable) mounts.push({ kind: "writable", path: folder });
  mounts.push(...places.mounts, ...homeSecrets);

  return {
    cwd: request.cwd,
    env: sandboxEnvironment(request.env, home ?? "/tmp"),
    mounts,
    stubs: places.standIns,
    pins: [...new Set(places.pins)],
    user: insideUser(request.hostUser ?? hostUser()),
    concerns: places.concerns,
    repositories: { roots: request.writable, found: places.repositories, missing: places.missing, since, unreadable: places.unreadable },
    ...(request.network ? { network: true } : {}),
  };
}

/**
 * The system's folders read-only, /bin, /lib… as the links or folders they are, /etc's secrets
 * hidden. `folders`: what is bound whole. Looked at synchronously, on purpose: some twenty lstat
 * calls on system paths take well under a millisecond together, where as many round trips through
 * libuv's threads took several on a loaded machine (each waits to be scheduled). Read afresh for
 * every command (nothing kept between commands: a secret that appears in /etc is hidden from the next one).
 */
function systemMounts(): { mounts: Mount[]; folders: string[] } {
  const mounts: Mount[] = [];
  const folders: string[] = [];
  for (const folder of SYSTEM_FOLDERS) {
    if (kindNow(folder) !== "directory") continue;
    mounts.push({ kind: "readOnly", path: folder });
    folders.push(folder);
  }
  for (const path of TOP_LEVEL_LINKS) {
    const kind = kindNow(path);
    const target = kind === "symlink" ? readlinkNow(path) : undefined;
    if (target !== undefined) mounts.push({ kind: "symlink", path, target });
    else if (kind === "directory") mounts.push({ kind: "readOnly", path });
    // Either way /bin/ls works inside: a PATH entry /bin needs nothing more.
    if (target !== undefined || kind === "directory") folders.push(path);
  }
  if (folders.includes("/etc")) for (const secret of ETC_SECRETS) if (readableHere(secret)) mounts.push(...hidden(secret));
  return { mounts, folders };
}

/**
 * Whether this process may read `path` (a folder: list it, or reach names inside it). A command
 * runs as the same user with the same groups and no capability, so what this process may not read
 * it may not either, and hiding that would cost bubblewrap a mount per command for nothing (as a
 * normal user, /etc/shadow, sudoers, ssl/private). Started by root, it reads them all: all hidden
 * (the command, nobody inside, is their owner outside).
 */
function readableHere(path: string): boolean {
  for (const mode of [constants.R_OK, constants.X_OK]) {
    try {
      accessSync(path, mode);
      // X_OK on a file means executable, not readable: only a folder's counts.
      if (mode === constants.R_OK || isFolderNow(path)) return true;
    } catch {
      // not with this mode
    }
  }
  return false;
}

/** An empty stand-in over a secret file or folder, when it exists. */
function hidden(path: string): Mount[] {
  const kind: PathKind = kindNow(path);
  if (kind === "directory") return [{ kind: "emptyFolder", path }];
  if (kind === "file") return [{ kind: "emptyFile", path }];
  return [];
}

/**
 * The folders on PATH (absolute ones; never the home folder or one above it, which would bring
 * the whole home back), each read-only at its own place even when it is a link (NixOS's
 * /run/current-system/sw/bin), and the installation the first `node` on PATH belongs to.
 * Never one inside a workspace folder (`roots`): a command there could have made it a link to any
 * folder (`ln -s ~/.ssh tools`), which the next command would then read; it sees it through the
 * workspace folder's own mount anyway.
 * Synchronous, as systemMounts and for the same reason: a dozen local folders.
 */
function toolFolders(path: string, home: string | undefined, roots: readonly string[]): Mount[] {
  const out: Mount[] = [];
  let nodePrefix: string | undefined;
  for (const entry of new Set(path.split(delimiter))) {
    if (!isAbsolute(entry) || (home && isInside(home, entry)) || roots.some((root) => isInside(entry, root))) continue;
    const real = realpathNow(entry);
    if (real === undefined || (home && isInside(home, real)) || !isFolderNow(real)) continue;
    out.push({ kind: "readOnly", path: real });
    if (real !== entry) out.push({ kind: "readOnly", path: entry, source: real });
    nodePrefix ??= nodeInstallation(real);
  }
  if (nodePrefix && !(home && isInside(home, nodePrefix))) out.unshift({ kind: "readOnly", path: nodePrefix });
  return out;
}

function readlinkNow(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined; // gone since it was looked at
  }
}

function realpathNow(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/** `<prefix>` for a `<prefix>/bin/node` in `folder` (after links: nvm's and volta's shims lead there). */
function nodeInstallation(folder: string): string | undefined {
  // One lstat first: most PATH folders have no `node`, and a realpath walks every part of the path.
  if (kindNow(join(folder, "node")) === undefined) return undefined;
  const node = realpathNow(join(folder, "node"));
  if (node === undefined || basename(dirname(node)) !== "bin") return undefined;
  const prefix = dirname(dirname(node));
  return prefix === "/" ? undefined : prefix;
}
