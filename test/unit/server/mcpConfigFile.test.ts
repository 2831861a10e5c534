import { existsSync, readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { writeMcpConfigFile } from "../../../src/core/server/mcpConfigFile";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

describe("the --mcp-config file of a launched agent", () => {
  it("names Arcadia's server with the token and the agent id, readable by the user only, and goes away", async () => {
    const file = await writeMcpConfigFile("http://127.0.0.1:4321/mcp", "s3cret", "agent-7", tempDir());
    expect(JSON.parse(readFileSync(file.path, "utf8"))).toEqual({
      mcpServers: { arcadia: { type: "http", url: "http://127.0.0.1:4321/mcp", headers: { Authorization: "Bearer s3cret", "x-arcadia-agent": "agent-7" } } },
    });
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    await file.remove();
    expect(existsSync(file.path)).toBe(false);
  });
});
