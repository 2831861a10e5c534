/**
 * The processes of one process group on Linux, from /proc (`stat` field 5). For signalling a
 * group but one of its members: a sandboxed command's Ctrl+C must reach the command, not the
 * bubblewrap in front of it (which would die of it and take the sandbox, cleanup and all).
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterComm } from "./startTime";

export function linuxProcessGroup(pgid: number): number[] {
  const members: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return members;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "latin1");
    } catch {
      continue; // gone meanwhile
    }
    // After `(comm)`: state, ppid, pgrp.
    if (Number(afterComm(stat)?.[2]) === pgid) members.push(Number(entry));
  }
  return members;
}
