/**
 * What one sandboxed command may take of the machine, so that a runaway or hostile one (a fork
 * bomb, a memory hog, /tmp filled in memory) cannot take the user's session down with it:
 * - processes and threads: RLIMIT_NPROC, counted in the sandbox's own user namespace (Linux 5.14
 *   and later), set inside the sandbox just before the program (set on bubblewrap outside, it would
 *   also count every process of the user's when the namespace is made): by dash's own `ulimit`
 *   where /bin/sh is dash (Debian, Ubuntu: a shell that starts in a fraction of prlimit's time, and
 *   then becomes the program), else by util-linux's `prlimit`;
 * - memory: RLIMIT_AS (address space) per process, generous enough for Node's and V8's reservations;
 * - /tmp, /var/tmp and the sandbox's HOME: in-memory folders of a fixed size each.
 * When one is hit the program sees "Resource temporarily unavailable" (fork), "Cannot allocate
 * memory" or "No space left on device"; limitMessage turns that into the reason, in words.
 */

export const LIMITS = {
  processes: 2048,
  memoryBytes: 8 * 1024 ** 3,
  scratchBytes: 1024 ** 3,
};

const GIB = 1024 ** 3;

/** What sets the limits inside the sandbox (a program in a system folder, bound read-only there). */
export type Limiter = { kind: "dash"; path: string } | { kind: "prlimit"; path: string };

/**
 * The words to put before the program inside the sandbox. dash's: the limits (its `ulimit` takes
 * one at a time, soft and hard alike, as prlimit sets them), PWD unset (dash exports one; the
 * sandbox's environment is the allow-list alone), then `exec` of the program and its arguments as
 * given ("$@": never read as shell text).
 */
export function limitsPrefix(limiter: Limiter | undefined): string[] {
  if (limiter === undefined) return [];
  if (limiter.kind === "dash") {
    const script = `ulimit -p ${LIMITS.processes} && ulimit -v ${LIMITS.memoryBytes / 1024} && unset PWD && exec "$@"`;
    return [limiter.path, "-c", script, "sh"];
  }
  return [limiter.path, `--nproc=${LIMITS.processes}`, `--as=${LIMITS.memoryBytes}`, "--"];
}

/** The sandbox's limits in a sentence, for the terminal and the agent. */
export function limitsInWords(): string {
  return (
    `at most ${LIMITS.processes} processes and threads, ${LIMITS.memoryBytes / GIB} GiB of memory per process, ` +
    `${LIMITS.scratchBytes / GIB} GiB in each of /tmp, /var/tmp and its HOME`
  );
}

const HIT = /Resource temporarily unavailable|fork: retry|Cannot allocate memory|ENOMEM|out of memory|No space left on device|ENOSPC/i;

/** A plain sentence when a failed sandboxed command's output says it ran into a limit, else undefined. */
export function limitMessage(output: string): string | undefined {
  if (!HIT.test(output)) return undefined;
  return ` Its output says it ran out of something: the sandbox allows ${limitsInWords()}.`;
}
