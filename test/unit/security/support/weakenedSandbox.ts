/**
 * A deliberately weakened build of the real sandbox, for the attack tests: the same launches with
 * one defence taken out of bubblewrap's arguments, so that each test first shows its attack
 * working (the test can fail) before showing Arcadia's sandbox hold it.
 */
import type { CommandSandbox, SandboxFolders, SandboxLaunch } from "../../../../src/core/sandbox";

/** `cut(args)` returns the arguments without the defence under test. */
export function weakenedSandbox(real: CommandSandbox, cut: (args: readonly string[]) => string[]): CommandSandbox {
  return {
    settings: () => real.settings(),
    availability: () => real.availability(),
    async launch(where: SandboxFolders): Promise<SandboxLaunch> {
      const launch = await real.launch(where);
      return { ...launch, args: cut(launch.args) };
    },
  };
}

/** Removes each option and the values it takes (`["--uid", 1]`: `--uid` and one value after it). */
export function withoutOptions(...options: [string, number][]): (args: readonly string[]) => string[] {
  return (args) => {
    const out: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const cut = options.find(([name]) => name === args[i]);
      if (cut) i += cut[1];
      else out.push(args[i] as string);
    }
    return out;
  };
}

/** The pre-issue-31 user: bubblewrap's defaults, which keep root's capabilities when root starts it. */
export const asStartedWithAllCapabilities = withoutOptions(["--uid", 1], ["--gid", 1], ["--cap-drop", 1], ["--disable-userns", 0]);

/** Removes the mounts made at these paths (`--ro-bind s p`, `--tmpfs p --remount-ro p`): what protected them is gone. */
export function withoutMountsAt(...paths: string[]): (args: readonly string[]) => string[] {
  return (args) => {
    const out: string[] = [];
    for (let i = 0; i < args.length; i++) {
      if (args[i] === "--ro-bind" && paths.includes(args[i + 2] as string)) i += 2;
      else if (args[i] === "--tmpfs" && paths.includes(args[i + 1] as string)) i += args[i + 2] === "--remount-ro" ? 3 : 1;
      else out.push(args[i] as string);
    }
    return out;
  };
}

/** The launch's concerns dropped: what it could not protect runs unasked anyway. */
export function ignoringConcerns(real: CommandSandbox): CommandSandbox {
  return { ...weakenedSandbox(real, (args) => [...args]), launch: async (where) => ({ ...(await real.launch(where)), concerns: [] }) };
}
