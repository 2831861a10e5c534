/** Where Claude Code's sandbox can run for the agents, and what the panel says where it cannot. */
import { describe, expect, it } from "vitest";
import { agentSandboxAvailability, sandboxedBashUse } from "../../../src/core/agentSandbox";

describe("the agents' sandbox availability", () => {
  it("Linux with bubblewrap and socat, and macOS (the CLI's own Seatbelt): available", () => {
    expect(agentSandboxAvailability("linux", { bwrap: "/usr/bin/bwrap", socat: "/usr/bin/socat" })).toEqual({ available: true });
    expect(agentSandboxAvailability("darwin", {})).toEqual({ available: true });
  });

  it("Linux without one of them names what is missing and the command that installs it", () => {
    const noSocat = agentSandboxAvailability("linux", { bwrap: "/usr/bin/bwrap" });
    expect(noSocat).toMatchObject({ available: false, reason: expect.stringContaining("needs socat") });
    expect(!noSocat.available && noSocat.fix).toContain("sudo apt install socat");
    const neither = agentSandboxAvailability("linux", {});
    expect(!neither.available && neither.fix).toContain("sudo apt install bubblewrap socat");
  });

  it("Windows: not used, and the agents' commands ask as before", () => {
    const win = agentSandboxAvailability("win32", {});
    expect(win).toMatchObject({ available: false, reason: expect.stringContaining("Windows") });
    expect(!win.available && win.fix).toContain("ask you first");
  });
});

describe("a tool row of a sandboxed agent", () => {
  it("a Bash call runs in the sandbox; one with dangerouslyDisableSandbox asked to leave it; other tools and unsandboxed agents are unmarked", () => {
    expect(sandboxedBashUse(true, "Bash", { command: "ls" })).toBe("inSandbox");
    expect(sandboxedBashUse(true, "Bash", { command: "curl x", dangerouslyDisableSandbox: true })).toBe("outsideAsked");
    expect(sandboxedBashUse(true, "Bash", { command: "ls", dangerouslyDisableSandbox: "yes" })).toBe("inSandbox");
    expect(sandboxedBashUse(true, "Read", { file_path: "/x" })).toBeUndefined();
    expect(sandboxedBashUse(false, "Bash", { command: "ls" })).toBeUndefined();
  });
});
