/**
 * Finds API keys hidden in runs of URL or base64 characters: percent-encoded, or base64 in any spelling
 * Node decodes (padded or not, unused bits set, the URL-safe alphabet) at any byte alignment. A run that
 * may hide a key is reported (over-redaction is harmless, under-redaction is a leak).
 */

/** A core at least this long (characters) is specific enough to decide alone. */
const MIN_CORE_CHARS = 6;

/**
 * For each byte alignment (0, 1, 2) of `key` in a longer byte string: the base64 characters (standard
 * alphabet) that depend on the key's bits only, so that every base64 spelling of any bytes holding the key
 * at that alignment contains them.
 */
function base64Cores(key: Buffer): string[] {
  const cores: string[] = [];
  for (let alignment = 0; alignment < 3; alignment++) {
    const low = Buffer.concat([Buffer.alloc(alignment, 0x00), key, Buffer.alloc(3, 0x00)]).toString("base64");
    const high = Buffer.concat([Buffer.alloc(alignment, 0xff), key, Buffer.alloc(3, 0xff)]).toString(
      "base64",
    );
    let best = "";
    let start = 0;
    for (let i = 0; i <= low.length; i++) {
      if (i < low.length && low[i] === high[i]) continue;
      if (i - start > best.length) best = low.slice(start, i);
      start = i + 1;
    }
    cores.push(best);
  }
  return cores;
}

/** Decode %XX escapes (invalid ones left as they are) to Latin-1 characters, byte for byte. */
function percentDecode(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** Knows the keys; answers whether a run of characters may hide one of them. */
export class EncodedKeyFinder {
  /** Cores long enough to decide by themselves. */
  readonly #cores: string[] = [];
  /** Keys too short for a specific core: runs are decoded and searched for them. */
  readonly #shortKeys: string[] = [];
  /** Shortest run worth looking at: the unpadded base64 of the shortest key. */
  readonly minRun: number;

  /** Prepare the search for `keys` (printable ASCII). */
  constructor(keys: Iterable<string>) {
    let shortest = Number.POSITIVE_INFINITY;
    for (const key of keys) {
      shortest = Math.min(shortest, key.length);
      const cores = base64Cores(Buffer.from(key, "latin1"));
      if (cores.every((core) => core.length >= MIN_CORE_CHARS)) this.#cores.push(...cores);
      else this.#shortKeys.push(key);
    }
    this.minRun = Number.isFinite(shortest) ? Math.ceil((shortest * 4) / 3) : Number.POSITIVE_INFINITY;
  }

  /** Whether `run` (characters of `[A-Za-z0-9+/_%=-]`) may hide a key; `isPlainSecret` checks decoded text. */
  hides(run: string, isPlainSecret: (text: string) => boolean): boolean {
    if (run.length < this.minRun) return false;
    if (this.#hidesInBase64(run)) return true;
    if (!run.includes("%")) return false;
    const decoded = percentDecode(run);
    return isPlainSecret(decoded) || this.#hidesInBase64(decoded);
  }

  #hidesInBase64(text: string): boolean {
    const standard = text.replace(/-/g, "+").replace(/_/g, "/");
    for (const core of this.#cores) if (standard.includes(core)) return true;
    if (this.#shortKeys.length === 0) return false;
    const bare = standard.replace(/[^A-Za-z0-9+/]/g, "");
    for (let shift = 0; shift < 4 && shift < bare.length; shift++) {
      const bytes = Buffer.from(bare.slice(shift), "base64").toString("latin1");
      for (const key of this.#shortKeys) if (bytes.includes(key)) return true;
    }
    return false;
  }
}
