import { describe, expect, it } from "vitest";
import { terminalText } from "../../../src/core/tools/terminalText";

describe("terminal output as text", () => {
  it("drops colours, shell-integration marks and titles, and turns CRLF into LF", () => {
    const raw = "\x1b]633;C\x07\x1b[1;31merror\x1b[0m: failed\r\n\x1b]0;title\x1b\\done\r\n\x1b]633;D;1\x07";
    expect(terminalText(raw)).toBe("error: failed\ndone\n");
  });

  it("keeps only the last state of a line redrawn with carriage returns", () => {
    expect(terminalText("downloading 10%\rdownloading 50%\rdownloading 100%\r\nok\r\n")).toBe("downloading 100%\nok\n");
  });

  it("drops other control characters but keeps tabs", () => {
    expect(terminalText("a\tb\x07\x08c\n")).toBe("a\tbc\n");
  });
});
