/**
 * MCP tool results as Arcadia returns them: one text block holding JSON, so an agent can read the
 * fields (status, exit_code, output…) and a person can read the message.
 */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  isError?: boolean;
}

export function jsonResult(body: Record<string, unknown>, isError = false): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(body) }], ...(isError ? { isError: true } : {}) };
}
