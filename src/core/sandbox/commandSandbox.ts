/**
 * The sandbox as execute_command uses it: the user's choice (arcadia.sandbox), whether it can run
 * here (bubblewrap.ts, kept once it works, tried again a while after it did not), and, for one
 * command, bubblewrap's arguments (layoutFromDisk.ts + bwrapArguments.ts).
 */
import { homedir } from "node:os";
import { basename, isAbsolute, join, relative, sep } from "node:path";
import { realpath } from "node:fs/promises";
import { WORKTREES_FOLDER } from "../git";
import { isInside } from "../util";
import { probeBubblewrap, type SandboxAvailability } from "./bubblewrap";
import { bwrapArguments } from "./bwrapArguments";
import which from "which";
import { layoutFromDisk } from "./layoutFromDisk";
import { leftBehind, type LeftBehind } from "./leftBehind";
import { type Limiter, limitsPrefix } from "./limits";
import { unixSocketFilter } from "./unixSocketFilter";
import { type StandIns, standIns } from "./standIns";
import { folderWalks, type FolderWalks } from "./folderWalks";

/**
 * arcadia.sandbox: "unaskedCommands" (default) — what runs without asking runs in the sandbox,
 * what the user approved runs as shown; "allCommands" — approved ones too; "off" — none, and then
 * only read-only commands run without asking (as where there is no sandbox).
 */
export type SandboxMode = "unaskedCommands" | "allCommands" | "off";

export interface SandboxSettings {
  mode: SandboxMode;
  /** More folders a sandboxed command may read (a toolchain in the home folder: ~/.rustup, ~/.pyenv). */
  readablePaths: readonly string[];
}

/** How one command is confined: run `bwrap <args> -- <program…>`, then `release()` once it has exited. */
export interface SandboxLaunch {
  bwrap: string;
  args: readonly string[];
  /** Empty read-only folders held on the host for it (standIns.ts), made before launch returned. */
  stubs: readonly string[];
  /** Why this command should not run unasked (a protected name is a link…); empty when none. */
  concerns: readonly string[];
  /** Lets go of its stand-ins: call once bubblewrap has exited (or was never started). Idempotent. */
  release: () => void;
  /** Written to bubblewrap's file descriptor SECCOMP_FD (3) as it starts: the unix-socket filter. */
  seccomp: Uint8Array;
  /** Words before the program inside the sandbox: its limits (limits.ts). */
  prefix: readonly string[];
  /** After it ended: the repositories it made (leftBehind.ts). */
  leftBehind: () => Promise<LeftBehind[]>;
}

export interface SandboxFolders {
  /** The command's folder, a real path. */
  cwd: string;
  /** The workspace folders, real paths. */
  folders: readonly string[];
  /** The folder the agent works in, when known: in a worktree, only that worktree is writable. */
  agentCwd: string | undefined;
  /** Keep the host's network (a Run check, when the user's setting allows it). Default: none. */
  network?: boolean;
}

export interface CommandSandbox {
  settings(): SandboxSettings;
  availability(): Promise<SandboxAvailability>;
  launch(where: SandboxFolders): Promise<SandboxLaunch>;
}

/** System folders (bound read-only in every sandbox) where what sets the limits is looked for. */
const SYSTEM_BIN = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"];

/** The same for every command (it depends on nothing but the kernel's numbers): made once. */
const SECCOMP_FILTER = unixSocketFilter();

export interface BubblewrapSandboxOptions {
  settings: () => SandboxSettings;
  env?: NodeJS.ProcessEnv;
  home?: string;
  platform?: NodeJS.Platform;
  /** A probe found no sandbox (each different reason once): the host tells the user. */
  onUnavailable?: (why: Extract<SandboxAvailability, { available: false }>) => void;
  /** How long a failed probe is believed before bubblewrap is tried again. */
  retryAfterMs?: number;
  /** The record of stand-ins (default: the extension host's one, shared by every sandbox: standIns.ts). */
  standIns?: StandIns;
  /** The folders the walk for nested repositories has read (default: the extension host's one, shared by every sandbox: folderWalks.ts). */
  walks?: FolderWalks;
}

export class BubblewrapSandbox implements CommandSandbox {
  private probe: Promise<SandboxAvailability> | undefined;
  /** When the last probe found no sandbox (undefined while one runs, or after one found it). */
  private failedAt: number | undefined;
  private readonly told = new Set<string>();
  private limiterFound: Promise<Limiter | undefined> | undefined;
  private readonly env: NodeJS.ProcessEnv;
  private readonly home: string;

  constructor(private readonly options: BubblewrapSandboxOptions) {
    this.env = options.env ?? process.env;
    this.home = options.home ?? homedir();
  }

  settings(): SandboxSettings {
    return this.options.settings();
  }

  availability(): Promise<SandboxAvailability> {
    const retryAfterMs = this.options.retryAfterMs ?? 30_000;
    if (this.probe === undefined || (this.failedAt !== undefined && Date.now() - this.failedAt > retryAfterMs)) {
      this.failedAt = undefined;
      this.probe = probeBubblewrap(this.env, this.home, this.options.platform).then((found) => {
        if (found.available) return found; // kept: never probed again
        this.failedAt = Date.now();
        if (!this.told.has(found.reason)) {
          this.told.add(found.reason);
          this.options.onUnavailable?.(found);
        }
        return found;
      });
    }
    return this.probe;
  }

  async launch(where: SandboxFolders): Promise<SandboxLaunch> {
    const availability = await this.availability();
    if (!availability.available) throw new Error(`${availability.reason}. ${availability.fix}`);
    const writable = writableFolders(where.folders, where.agentCwd);
    const readable = [...where.folders.filter((f) => !writable.includes(f)), ...(await this.extraReadable())];
    const held = this.options.standIns ?? standIns;
    const isStandIn = (path: string) => held.isOurs(path);
    const walks = this.options.walks ?? folderWalks;
    const layout = await layoutFromDisk({
      cwd: where.cwd,
      writable,
      readable,
      home: this.home,
      env: this.env,
      isStandIn,
      walks,
      network: where.network === true,
    });
    // Held from now until the command has exited: no other command's end can remove them meanwhile.
    const release = await held.hold(layout.stubs);
    return {
      bwrap: availability.bwrap,
      args: bwrapArguments(layout),
      stubs: layout.stubs,
      concerns: layout.concerns ?? [],
      release,
      seccomp: SECCOMP_FILTER,
      prefix: limitsPrefix(await this.limiter()),
      leftBehind: () => leftBehind(layout.repositories ?? { roots: [], found: [] }, walks),
    };
  }

  /** What sets the limits inside (limits.ts), found once: /bin/sh when it is dash, else util-linux's prlimit, in a system folder. */
  private limiter(): Promise<Limiter | undefined> {
    this.limiterFound ??= (async (): Promise<Limiter | undefined> => {
      const sh = await realpath("/bin/sh").catch(() => undefined);
      if (sh !== undefined && basename(sh) === "dash" && SYSTEM_BIN.some((folder) => sh.startsWith(`${folder}/`))) return { kind: "dash", path: sh };
      const prlimit = await which("prlimit", { path: SYSTEM_BIN.join(":"), nothrow: true });
      return prlimit ? { kind: "prlimit", path: prlimit } : undefined;
    })();
    return this.limiterFound;
  }

  /** arcadia.sandbox.readablePaths: `~` is the home folder; ones that do not exist are left out. */
  private async extraReadable(): Promise<string[]> {
    const out: string[] = [];
    for (const entry of this.settings().readablePaths) {
      const expanded = entry === "~" ? this.home : entry.startsWith("~/") ? join(this.home, entry.slice(2)) : entry;
      if (!isAbsolute(expanded)) continue;
      const real = await realpath(expanded).catch(() => undefined);
      // The home folder or one above it would bring every secret back: never.
      if (real !== undefined && !isInside(this.home, real)) out.push(real);
    }
    return out;
  }
}

/**
 * What a command of this agent may write: the agent's own worktree
 * (`<folder>/.claude/worktrees/<name>`) when it works in one, else every workspace folder.
 */
export function writableFolders(folders: readonly string[], agentCwd: string | undefined): string[] {
  if (agentCwd !== undefined) {
    for (const folder of folders) {
      if (!isInside(agentCwd, folder)) continue;
      const parts = relative(folder, agentCwd).split(sep);
      const prefix = WORKTREES_FOLDER.split(sep);
      if (parts.length > prefix.length && prefix.every((p, i) => parts[i] === p)) return [join(folder, ...parts.slice(0, prefix.length + 1))];
    }
  }
  return [...folders];
}
