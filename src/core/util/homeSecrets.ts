/**
 * What of a home folder no sandboxed command may read, even where home itself is readable: keys,
 * tokens, other tools' credentials and shell histories. One list for both sandboxes: bubblewrap's
 * for unasked commands hides them in a home inside a bound folder (core/sandbox), and Claude Code's
 * own for an agent's shell denies them (core/agentSandbox).
 */
export const HOME_SECRETS: readonly string[] = [
  ".ssh",
  ".aws",
  ".azure",
  ".config",
  ".claude",
  ".claude.json",
  ".gnupg",
  ".netrc",
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".docker",
  ".kube",
  ".git-credentials",
  ".gitconfig",
  ".cargo/credentials.toml",
  ".local/share/keyrings",
  ".bash_history",
  ".zsh_history",
  ".python_history",
  ".node_repl_history",
];
