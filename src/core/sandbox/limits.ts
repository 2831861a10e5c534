/**
 * What one sandboxed command may take of the machine, so that a runaway or hostile one (a fork
 * bomb, a memory hog, /tmp filled in memory) cannot take the user's session down with it:
 * - processes and threads: RLIMIT_NPROC, counted in the sandbox's own user namespace (Linux 5.14
 *   and later), set by util-linux's `prlimit` inside the sandbox just before the program;
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

/** The words to put before the program inside the sandbox (`prlimit` is in /usr/bin, bound read-only). */
export function limitsPrefix(prlimit: string | undefined): string[] {
  if (prlimit === undefined) return [];
  return [prlimit, `--nproc=${LIMITS.processes}`, `--as=${LIMITS.memoryBytes}`, "--"];
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
