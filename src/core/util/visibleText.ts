/**
 * Text a person is asked to approve (a command, a path), made so that all of it can be seen:
 * - never cut: what is approved is the whole thing, so the end (where "&& curl … | sh" hides) stays;
 * - a run of 4+ blanks (spaces, tabs, or both) is collapsed *visibly*: "npm test" + 200 spaces
 *   + "&& curl" shows as "npm test ␣×200 && curl", so padding cannot push the rest out of sight;
 * - line breaks show as ⏎ (one approved line cannot silently carry a second one);
 * - control, bidi, zero-width and other invisible or space-like characters show as escapes
 *   (\u202E, \u001B, \u00A0), so nothing reorders, erases or hides what is shown.
 * Plain ASCII printable text is unchanged, and applying it twice changes nothing more.
 */

/** Runs this long or longer are collapsed; shorter ones are shown as they are (pre-wrap). */
const COLLAPSE_RUN = 4;

const BLANK_RUN = new RegExp(`[ \t]{${COLLAPSE_RUN},}`, "g");

// Cc: C0/DEL/C1 (newline and tab handled first); Cf: bidi, zero-width, tags…; Zl/Zp: U+2028/9;
// Zs other than the plain space: no-break and other look-alike spaces that are not separators to a shell.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}]/gu;

export function visibleText(text: string): string {
  return text
    .replace(/\r\n|\n/g, "⏎")
    .replace(BLANK_RUN, (run) => ` ${blankSymbol(run)}×${run.length} `)
    .replace(/\t/g, "⇥")
    .replace(HIDDEN, (ch) => (ch === " " ? ch : escape(ch.codePointAt(0) as number)));
}

/** ␣ for spaces, ⇥ for tabs, both for a mix: the count alone would not say which. */
function blankSymbol(run: string): string {
  const spaces = run.includes(" ");
  const tabs = run.includes("\t");
  return spaces && tabs ? "␣⇥" : tabs ? "⇥" : "␣";
}

function escape(cp: number): string {
  const hex = cp.toString(16).toUpperCase();
  return cp > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
}
