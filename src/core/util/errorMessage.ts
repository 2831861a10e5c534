/** What went wrong, for a log line or a message: an Error's message, anything else thrown as text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
