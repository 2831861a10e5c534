/**
 * The simulated CLIs' side of a bench's child process (`fork`): each command the parent sends is
 * run as it comes (`run` answers it); a failure ends the child with its error, which the parent
 * sees as its exit. Outside a fork it does nothing. Used by the soak's and the fifty-agent bench's CLIs.
 */
export function serveParentCommands<C>(label: string, run: (command: C) => Promise<void>): void {
  if (!process.send) return;
  process.on("message", (command: C) => {
    run(command).catch((err: unknown) => {
      console.error(`${label}:`, err);
      process.exit(1);
    });
  });
}
