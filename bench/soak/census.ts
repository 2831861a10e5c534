/**
 * What the soak counts, taken the same way at every hour: heap after a full GC, RSS, open handles
 * by type (process.getActiveResourcesInfo(), which lists only what keeps the loop alive), open
 * file descriptors, listeners (on every Node EventEmitter and EventTarget still alive, and every
 * Arcadia Emitter subscription) and timers (every setTimeout / setInterval scheduled and neither
 * run nor cleared, unref'd ones included: getActiveResourcesInfo() misses those).
 *
 * Import this module first: it wraps the prototypes and the timer functions so it sees everything
 * made after it.
 */
import { EventEmitter, getEventListeners } from "node:events";
import { readdirSync } from "node:fs";
import { liveEmitterSubscriptions } from "../../src/core/util/emitter";

const emitters = new Set<WeakRef<EventEmitter>>();
const knownEmitters = new WeakSet<EventEmitter>();
const targets = new Set<WeakRef<EventTarget>>();
const typesOf = new WeakMap<EventTarget, Set<string>>();

for (const name of ["on", "addListener", "prependListener", "once", "prependOnceListener"] as const) {
  const original = EventEmitter.prototype[name] as (this: EventEmitter, ...args: unknown[]) => EventEmitter;
  (EventEmitter.prototype as unknown as Record<string, unknown>)[name] = function (this: EventEmitter, ...args: unknown[]) {
    if (!knownEmitters.has(this)) {
      knownEmitters.add(this);
      emitters.add(new WeakRef(this));
    }
    return original.apply(this, args);
  };
}

const addEventListener = EventTarget.prototype.addEventListener;
EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, ...rest: unknown[]) {
  let types = typesOf.get(this);
  if (!types) {
    typesOf.set(this, (types = new Set()));
    targets.add(new WeakRef(this));
  }
  types.add(type);
  return (addEventListener as (...args: unknown[]) => void).call(this, type, ...rest);
} as typeof addEventListener;

const liveTimers = new Set<unknown>();
const { setTimeout: realSetTimeout, clearTimeout: realClearTimeout, setInterval: realSetInterval, clearInterval: realClearInterval } = globalThis;
globalThis.setTimeout = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
  const timer = realSetTimeout(
    (...a: unknown[]) => {
      liveTimers.delete(timer);
      fn(...a);
    },
    ms,
    ...args,
  );
  liveTimers.add(timer);
  return timer;
}) as typeof setTimeout;
globalThis.clearTimeout = ((timer: Parameters<typeof clearTimeout>[0]) => {
  liveTimers.delete(timer);
  realClearTimeout(timer);
}) as typeof clearTimeout;
globalThis.setInterval = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
  const timer = realSetInterval(fn, ms, ...args);
  liveTimers.add(timer);
  return timer;
}) as typeof setInterval;
globalThis.clearInterval = ((timer: Parameters<typeof clearInterval>[0]) => {
  liveTimers.delete(timer);
  realClearInterval(timer);
}) as typeof clearInterval;

export interface Census {
  heapMb: number;
  rssMb: number;
  /** Open handles (sockets, servers, watchers…), by type: what getActiveResourcesInfo() lists, timers apart. */
  handles: Record<string, number>;
  handleCount: number;
  fds: number;
  nodeListeners: number;
  targetListeners: number;
  arcadiaSubscriptions: number;
  listeners: number;
  /** Scheduled and not yet run nor cleared (unref'd included). */
  timers: number;
  /** The timers getActiveResourcesInfo() lists (those keeping the loop alive). */
  activeTimers: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Listeners by emitter class and event (SOAK_DETAIL: to find what grows). */
export function listenersByKind(): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const ref of emitters) {
    const emitter = ref.deref();
    if (!emitter) continue;
    for (const name of emitter.eventNames()) {
      const key = `${emitter.constructor.name}.${String(name)}`;
      kinds.set(key, (kinds.get(key) ?? 0) + emitter.listenerCount(name));
    }
  }
  return kinds;
}

function countListeners(): { node: number; targets: number } {
  let node = 0;
  for (const ref of emitters) {
    const emitter = ref.deref();
    if (!emitter) {
      emitters.delete(ref);
      continue;
    }
    for (const name of emitter.eventNames()) node += emitter.listenerCount(name);
  }
  let onTargets = 0;
  for (const ref of targets) {
    const target = ref.deref();
    if (!target) {
      targets.delete(ref);
      continue;
    }
    for (const type of typesOf.get(target) ?? []) onTargets += getEventListeners(target, type).length;
  }
  return { node, targets: onTargets };
}

/** Everything counted, after a full GC (twice, with a turn of the loop between: finalizers run). */
export async function census(): Promise<Census> {
  if (!gc) throw new Error("run the soak with --expose-gc: its heap figures need a full GC");
  gc();
  await new Promise((r) => realSetTimeout(r, 50));
  gc();
  const memory = process.memoryUsage();
  const handles: Record<string, number> = {};
  let activeTimers = 0;
  for (const type of process.getActiveResourcesInfo()) {
    if (type === "Timeout") activeTimers++;
    else handles[type] = (handles[type] ?? 0) + 1;
  }
  const listeners = countListeners();
  const arcadia = liveEmitterSubscriptions();
  return {
    heapMb: memory.heapUsed / 1024 / 1024,
    rssMb: memory.rss / 1024 / 1024,
    handles,
    handleCount: Object.values(handles).reduce((a, b) => a + b, 0),
    fds: openFds(),
    nodeListeners: listeners.node,
    targetListeners: listeners.targets,
    arcadiaSubscriptions: arcadia,
    listeners: listeners.node + listeners.targets + arcadia,
    timers: liveTimers.size,
    activeTimers,
  };
}

function openFds(): number {
  try {
    return readdirSync("/proc/self/fd").length;
  } catch {
    return -1;
  }
}
