/**
 * The process table in the CLI's `procStart` form, per platform: parsers for what each system
 * prints, and the real Linux /proc where the tests run on Linux.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listProcesses, parseLinuxStat, parsePsOutput, parseWindowsOutput, systemProcessTable } from "../../../src/core/process/processTable";
import { linuxStatStartTime, sameStartTime } from "../../../src/core/process/startTime";
import { pollUntil } from "../../support/waitFor";

describe("process table parsers", () => {
  it("reads a Linux stat line whose command name holds spaces and parentheses", () => {
    // The real line of a 2.1.330 CLI, with a hostile name put in.
    const stat = "13880 (my (odd) name) S 13852 13852 13852 34816 13852 4194304 41712 2399 2 0 58 9 1 0 20 0 8 0 878603 5850042368 55328 18446744073709551615";
    expect(parseLinuxStat(stat)).toEqual({ pid: 13880, ppid: 13852, name: "my (odd) name", startTime: "878603" });
    expect(parseLinuxStat("garbage")).toBeUndefined();
  });

  it("reads macOS ps output: lstart with a space-padded day, commands with spaces", () => {
    const out = [
      "    1     0 Sun Nov  2 07:45:21 2026 /sbin/launchd",
      "  501     1 Mon Nov 10 09:01:02 2026 /Applications/Visual Studio Code.app/Contents/MacOS/Electron",
      "  777   501 Mon Nov 10 09:02:03 2026 /bin/zsh -il",
      "  778   777 Mon Nov 10 09:02:04 2026 claude --resume abc",
      "  779   777 Mon Nov 10 09:02:05 2026 node /usr/local/lib/node_modules/@anthropic-ai/claude-code/cli.js",
      "not a process line",
    ].join("\n");
    const procs = parsePsOutput(out);
    expect(procs.map((p) => [p.pid, p.ppid, p.name])).toEqual([
      [1, 0, "launchd"],
      [501, 1, "Visual"],
      [777, 501, "zsh"],
      [778, 777, "claude"],
      [779, 777, "node"],
    ]);
    // Exactly what `LC_ALL=C TZ=UTC ps -o lstart= -p 1` prints, trimmed: the CLI's procStart.
    expect(procs[0]?.startTime).toBe("Sun Nov  2 07:45:21 2026");
    expect(procs[4]?.commandLine).toBe("node /usr/local/lib/node_modules/@anthropic-ai/claude-code/cli.js");
  });

  it("reads the Windows listing (pid, parent, FILETIME, name, command line)", () => {
    const out = "4\t0\t\tSystem\t\r\n9000\t8000\t134398071215620000\tclaude.exe\tC:\\Users\\u\\.local\\bin\\claude.exe --resume x\r\n";
    expect(parseWindowsOutput(out)).toEqual([
      { pid: 4, ppid: 0, name: "System" },
      { pid: 9000, ppid: 8000, name: "claude.exe", startTime: "134398071215620000", commandLine: "C:\\Users\\u\\.local\\bin\\claude.exe --resume x" },
    ]);
  });
});

describe("start times", () => {
  it("match exactly on Linux and macOS (whitespace aside), and differ for a reused pid", () => {
    expect(sameStartTime("878603", "878603", "linux")).toBe(true);
    expect(sameStartTime("878603", "878604", "linux")).toBe(false);
    expect(sameStartTime("Sun Nov  2 07:45:21 2026", "Sun Nov 2 07:45:21 2026", "darwin")).toBe(true);
    expect(sameStartTime("Sun Nov  2 07:45:21 2026", "Sun Nov  2 07:45:22 2026", "darwin")).toBe(false);
  });

  it("match within a tolerance on Windows, where WMI has microseconds and FILETIME 100 ns", () => {
    expect(sameStartTime("134398071215620000", "134398071215621234", "win32")).toBe(true);
    expect(sameStartTime("134398071215620000", "134398071415620000", "win32")).toBe(false);
  });

  it("count an unknown side as a match: then only liveness is checked", () => {
    expect(sameStartTime(undefined, "878603", "linux")).toBe(true);
    expect(sameStartTime("878603", undefined, "linux")).toBe(true);
  });
});

describe.skipIf(process.platform !== "linux")("the Linux process table", () => {
  it("walks the tree below a root, with start times in the form the CLI writes", async () => {
    const child = spawn("sh", ["-c", "sleep 30 & wait"], { stdio: "ignore" });
    try {
      const pid = child.pid as number;
      const table = systemProcessTable("linux");
      // Between fork and exec the child is still called sh.
      const procs = await pollUntil(
        async () => {
          const listed = await table.list([pid]);
          return listed.some((p) => p.ppid === pid && p.name === "sleep") && listed;
        },
        "the shell's sleep child in the table",
        2000,
        20,
      );
      const shell = procs.find((p) => p.pid === pid);
      const sleeper = procs.find((p) => p.ppid === pid && p.name === "sleep");
      expect(shell?.startTime).toBe(linuxStatStartTime(readFileSync(`/proc/${pid}/stat`, "utf8")));
      expect(sleeper?.startTime).toMatch(/^\d+$/);
      expect(procs.some((p) => p.pid === process.pid)).toBe(false);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("does not look below a process the caller prunes", async () => {
    const child = spawn("sh", ["-c", "sleep 30 & wait"], { stdio: "ignore" });
    try {
      const pid = child.pid as number;
      const table = systemProcessTable("linux");
      await pollUntil(async () => (await table.list([pid])).some((p) => p.ppid === pid), "the shell's child in the table", 2000, 20);
      const pruned = await table.list([pid], { descend: (p) => p.pid !== pid });
      expect(pruned.map((p) => p.pid)).toEqual([pid]);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("a process listing that fails", () => {
  // Here (not Windows) powershell.exe does not exist: the listing cannot run at all.
  it.skipIf(process.platform === "win32")("rejects, rather than passing for an empty table (which would read as every claude exited)", async () => {
    await expect(listProcesses("win32")).rejects.toThrow();
  });

  it.skipIf(process.platform !== "linux")("a root that is gone is simply not listed", async () => {
    const child = spawn("true", [], { stdio: "ignore" });
    const pid = child.pid as number;
    await new Promise((r) => child.on("exit", r));
    expect(await systemProcessTable("linux").list([pid])).toEqual([]);
  });
});
