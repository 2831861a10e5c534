/**
 * Synchronous work over many items, a slice at a time, with a turn of the event loop between
 * slices: nothing else waits more than one slice's work (the Sessions index: stats, glances, its
 * file's lines).
 */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function sliced<T, R>(items: readonly T[], sliceSize: number, work: (item: T) => R): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += sliceSize) {
    const end = Math.min(items.length, i + sliceSize);
    for (let j = i; j < end; j++) out.push(work(items[j] as T));
    if (end < items.length) await yieldToLoop();
  }
  return out;
}
