/**
 * The environment of a sandboxed command: an allow-list, never the extension host's whole
 * environment. VS Code's extension host carries what the user's login shell exported (tokens such
 * as GITHUB_TOKEN, AWS_*, ANTHROPIC_API_KEY, SSH_AUTH_SOCK) and VS Code's own variables; a
 * prompt-injected command must see none of them. What a program needs to find itself and print
 * in the user's language stays.
 */

/** Passed through when the host has them. */
export const PASSED_VARIABLES: readonly string[] = [
  "PATH",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "TERM",
  "COLORTERM",
  "TZ",
  "NO_COLOR",
  "FORCE_COLOR",
];

/** LC_ALL, LC_CTYPE…: the locale. */
const LOCALE = /^LC_[A-Z]+$/;

export function sandboxEnvironment(host: NodeJS.ProcessEnv, home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(host)) {
    if (value === undefined) continue;
    if (PASSED_VARIABLES.includes(name) || LOCALE.test(name)) env[name] = value;
  }
  // The sandbox's own, empty HOME and /tmp (scratch folders that go with it).
  env.HOME = home;
  env.TMPDIR = "/tmp";
  env.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  return env;
}
