/**
 * A map that remembers roughly the last `capacity` entries set, in O(1) per operation: two
 * generations, the older dropped whole when the newer fills up. (Evicting the oldest entry of one
 * Map one at a time looks O(1) but is not: V8 leaves deleted slots at the front of a Map's
 * storage until it rehashes, and finding the first live key walks over them — with 10,000 entries
 * that was a quadratic cost per closed tool.)
 */
export class RecentMap<K, V> {
  private newer = new Map<K, V>();
  private older = new Map<K, V>();
  private readonly generationSize: number;

  constructor(capacity: number) {
    this.generationSize = Math.max(1, Math.ceil(capacity / 2));
  }

  get(key: K): V | undefined {
    return this.newer.has(key) ? this.newer.get(key) : this.older.get(key);
  }

  has(key: K): boolean {
    return this.newer.has(key) || this.older.has(key);
  }

  set(key: K, value: V): void {
    this.older.delete(key);
    // Size first: the lookup is needed only when the newer generation is full.
    if (this.newer.size >= this.generationSize && !this.newer.has(key)) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(key, value);
  }

  /** set() for a key known to be absent (one lookup fewer: 20,000 tools closed at one turn's end). */
  add(key: K, value: V): void {
    if (this.newer.size >= this.generationSize) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(key, value);
  }

  delete(key: K): boolean {
    const inNewer = this.newer.delete(key);
    return this.older.delete(key) || inNewer;
  }

  get size(): number {
    return this.newer.size + this.older.size;
  }
}
