/**
 * The longest event-loop stall during some work, and what it was: a garbage collection (which
 * kind, how long), code, or waiting for a core (a loaded machine: the process used little CPU in
 * the gap). The figure is monitorEventLoopDelay's maximum, as before; a 1 ms timer notes when each
 * gap happened and the CPU the process used in it, and perf_hooks' GC entries say whether a
 * collection ran in it.
 * (The Sessions index's stall was once "cause not found": V8's full collections, started by a new
 * read buffer per 256 KB step — memory outside its heap — over a hundred of them per 2 GB.)
 */
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

export interface StallReport {
  /** The longest stall, in ms. */
  maxMs: number;
  /** What it was: "a full GC (12.3 ms)", "code (no GC during it)"… */
  cause: string;
  /** Full (mark-compact) collections during the work. */
  fullGcs: number;
}

interface Gc {
  start: number;
  duration: number;
  kind: number;
}

const GC_NAMES: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "a full GC",
  [constants.NODE_PERFORMANCE_GC_MINOR]: "a minor GC",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "a GC's incremental marking",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "a GC's weak callbacks",
};

function gcOf(entry: PerformanceEntry): Gc {
  const detail = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail;
  return { start: entry.startTime, duration: entry.duration, kind: detail?.kind ?? -1 };
}

/** Starts watching; the returned function stops and reports. */
export function watchStalls(): () => StallReport {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const gcs: Gc[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcs.push(gcOf(entry));
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  let longest = { at: 0, gap: 0, cpuMs: 0 };
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const ticker = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    if (now - last > longest.gap) longest = { at: last, gap: now - last, cpuMs: (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000 };
    last = now;
    lastCpu = cpu;
  }, 1);
  return () => {
    clearInterval(ticker);
    histogram.disable();
    // Entries still queued are delivered to the callback first.
    for (const entry of observer.takeRecords()) gcs.push(gcOf(entry));
    observer.disconnect();
    const during = gcs.filter((g) => g.start < longest.at + longest.gap && g.start + g.duration > longest.at);
    const gcMs = during.reduce((sum, g) => sum + g.duration, 0);
    const parts = during.map((g) => `${GC_NAMES[g.kind] ?? "a GC"} (${g.duration.toFixed(1)} ms)`);
    // What the GCs do not explain was the work itself, or (when the process hardly ran: its CPU
    // time, all threads, under half the gap) waiting for a core on a loaded machine.
    if (gcMs < longest.gap * 0.8) {
      const waited = longest.cpuMs < longest.gap / 2;
      parts.push(`${waited ? "waiting for a core" : "code"} (${(longest.gap - gcMs).toFixed(1)} ms${during.length === 0 ? ", no GC" : ""})`);
    }
    const cause = `${parts.join(" + ")}; the process used ${longest.cpuMs.toFixed(1)} ms of CPU in that ${longest.gap.toFixed(1)} ms gap`;
    return { maxMs: histogram.max / 1e6, cause, fullGcs: gcs.filter((g) => g.kind === constants.NODE_PERFORMANCE_GC_MAJOR).length };
  };
}
