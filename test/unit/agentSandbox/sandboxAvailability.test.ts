/** Where Claude Code's sandbox can run for the agents, and what the panel says where it cannot. */
import { describe, expect, it } from "vitest";
import { agentSandboxAvailability, sandboxMark } from "../../../src/core/agentSandbox";

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
  const bash = { name: "Bash", outcome: "done" };
  it("a Bash call that ran without asking ran in the sandbox, unasked", () => {
    expect(sandboxMark(true, bash)).toBe("unasked");
    expect(sandboxMark(true, { ...bash, outcome: "running" })).toBe("unasked");
    expect(sandboxMark(true, { ...bash, outcome: "error" })).toBe("unasked");
  });

  it("one that asked to leave the sandbox says so, whatever the answer", () => {
    for (const outcome of ["waiting", "denied", "done"]) expect(sandboxMark(true, { ...bash, outcome, leavesSandbox: true })).toBe("askedToLeave");
  });

  it("one that waited for the user, or waits, or was denied, is not unasked; other tools and unsandboxed agents are unmarked", () => {
    expect(sandboxMark(true, { ...bash, waitedMs: 1200 })).toBeUndefined();
    expect(sandboxMark(true, { ...bash, outcome: "waiting" })).toBeUndefined();
    expect(sandboxMark(true, { ...bash, outcome: "denied" })).toBeUndefined();
    expect(sandboxMark(true, { name: "Read", outcome: "done" })).toBeUndefined();
    expect(sandboxMark(false, bash)).toBeUndefined();
  });
});
