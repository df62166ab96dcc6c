/**
 * A queue bounded in entries and in charged bytes (oldest dropped first), listed as a stream of JSON text
 * that walks the live queue: a listing holds only the chunk it is sending, never a copy of the queue, so a
 * reader that stops reading keeps nothing alive that the queue has dropped since (issue 29, defect 4).
 */

/** One kept item with its charged bytes and its position (consecutive over the queue's life). */
export interface Slot<T> {
  readonly item: T;
  bytes: number;
  readonly position: number;
}

/** Listing chunks are gathered up to about this many characters before they are handed out. */
const LISTING_CHUNK_CHARS = 64 * 1024;

/** Items oldest first; at most `maxEntries` of them and at most `maxBytes` charged bytes (the newest stays). */
export class BoundedQueue<T> {
  /** `slots[head]` is the oldest; earlier indexes are spent. */
  #slots: Array<Slot<T>> = [];
  #head = 0;
  #charged = 0;
  /** Position the next pushed item gets; never reset, so a listing in progress cannot mistake a new item for an old one. */
  #nextPosition = 0;
  readonly #maxEntries: number;
  readonly #maxBytes: number;

  /** Keep at most `maxEntries` items and `maxBytes` charged bytes. */
  constructor(maxEntries: number, maxBytes: number) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
  }

  /** Append an item charged `bytes`; answers its slot (to re-charge it as it grows). */
  push(item: T, bytes: number): Slot<T> {
    const slot: Slot<T> = { item, bytes, position: this.#nextPosition++ };
    this.#slots.push(slot);
    this.#charged += bytes;
    this.#evict();
    return slot;
  }

  /** Charge `slot` anew (it grew or shrank); drops the oldest items when the queue is now over its bound. */
  recharge(slot: Slot<T>, bytes: number): void {
    if (this.#at(slot.position) !== slot) return; // already dropped
    this.#charged += bytes - slot.bytes;
    slot.bytes = bytes;
    this.#evict();
  }

  /** Whether `slot` is still kept. */
  holds(slot: Slot<T>): boolean {
    return this.#at(slot.position) === slot;
  }

  #evict(): void {
    while (
      this.#slots.length - this.#head > 1 &&
      (this.#slots.length - this.#head > this.#maxEntries || this.#charged > this.#maxBytes)
    ) {
      this.#charged -= (this.#slots[this.#head] as Slot<T>).bytes;
      this.#slots[this.#head] = undefined as unknown as Slot<T>; // let it go now, not at the next compaction
      this.#head += 1;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#slots.length) {
      this.#slots = this.#slots.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The slot at `position`, if still kept. */
  #at(position: number): Slot<T> | undefined {
    const oldest = this.#slots[this.#head];
    if (oldest === undefined) return undefined;
    return this.#slots[this.#head + (position - oldest.position)];
  }

  /** Number of items and their charged bytes. */
  size(): { entries: number; bytes: number } {
    return { entries: this.#slots.length - this.#head, bytes: this.#charged };
  }

  /** The items, oldest first (a new array of the same items). */
  items(): T[] {
    return this.#slots.slice(this.#head).map((slot) => slot.item);
  }

  /**
   * The items as one JSON array, in chunks of about LISTING_CHUNK_CHARS characters, each item rendered by
   * `render`. It lists the items present when called that are still kept when reached (an item dropped
   * meanwhile is skipped, one added meanwhile is not listed).
   */
  *chunks(render: (item: T) => string): Generator<string> {
    const end = this.#nextPosition;
    let next = this.#slots[this.#head]?.position ?? end;
    let chunk = "[";
    let first = true;
    while (next < end) {
      const slot = this.#at(next);
      if (slot === undefined) {
        // Dropped (or cleared) since: go on from the oldest kept item, if it is older than `end`.
        const oldest = this.#slots[this.#head]?.position ?? end;
        next = Math.max(next + 1, oldest);
        continue;
      }
      chunk += first ? render(slot.item) : `,${render(slot.item)}`;
      first = false;
      next += 1;
      if (chunk.length >= LISTING_CHUNK_CHARS) {
        yield chunk;
        chunk = "";
      }
    }
    yield `${chunk}]`;
  }

  /** Drop every item. */
  clear(): void {
    this.#slots = [];
    this.#head = 0;
    this.#charged = 0;
  }
}
