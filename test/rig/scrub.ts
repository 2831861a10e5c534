// Replaces machine-specific strings in recorded transcripts with stable placeholders, so fixtures
// are identical in shape on every machine and leak nothing about the one that recorded them.
// Only plain substring replacement: everything else stays byte-for-byte.
import { hostname, userInfo } from "node:os";
import { dirname } from "node:path";
import { projectSlug } from "./home.js";

export const PLACEHOLDER_HOME = "/home/user";
export const PLACEHOLDER_WORKSPACE = "/home/user/project";

export interface ScrubInput {
  /** Temp root of the rig (parent of home). */
  root: string;
  home: string;
  workspace: string;
  /** Other paths to hide, mapped to their placeholders (e.g. the CLI install folder). */
  extra?: Record<string, string>;
}

/** Ordered [from, to] pairs: longest, most specific first so a prefix never pre-empts them. */
export function scrubPairs(input: ScrubInput): [string, string][] {
  const pairs: [string, string][] = [
    [input.workspace, PLACEHOLDER_WORKSPACE],
    [projectSlug(input.workspace), projectSlug(PLACEHOLDER_WORKSPACE)],
    [input.home, PLACEHOLDER_HOME],
    [projectSlug(input.home), projectSlug(PLACEHOLDER_HOME)],
    // The rig's $TMPDIR: the CLI's task output files live under it.
    [`${input.root}/tmp`, "/tmp"],
    [input.root, "/tmp/arcadia-rig"],
    [projectSlug(input.root), projectSlug("/tmp/arcadia-rig")],
    ...Object.entries(input.extra ?? {}),
    [dirname(process.execPath), "/usr/local/bin"],
  ];
  const host = hostname();
  // Short hostnames ("vm") would hit ordinary words; those cannot identify a machine anyway.
  if (host.length >= 5) pairs.push([host, "host"]);
  const user = userInfo().username;
  if (user.length >= 5 && user !== "user") pairs.push([`/home/${user}`, PLACEHOLDER_HOME]);
  return pairs.filter(([from]) => from.length > 0).sort((a, b) => b[0].length - a[0].length);
}

export function scrubText(text: string, pairs: [string, string][]): string {
  let out = text;
  for (const [from, to] of pairs) out = out.split(from).join(to);
  return out;
}
