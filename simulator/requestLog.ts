/**
 * The request log: API requests, oldest first, bounded by entries and by bytes. Entries are added when a
 * request arrives and completed (status, shop, body...) as it is handled, so a stalled request is visible
 * with status 0. Bodies are kept as scrubbed JSON text (never as a parsed tree: nothing here recurses over
 * client input), cut to a preview past LOG_BODY_MAX_CHARS. The listing is produced in chunks from the live
 * log, never as one string nor from a copy.
 */
import type { IncomingMessage } from "node:http";
import { type KeyRing, REDACTED, redactAuthorization } from "./auth";
import { BoundedQueue, type Slot } from "./boundedQueue";
import {
  LOG_BODY_MAX_CHARS,
  LOG_BODY_PREVIEW_CHARS,
  LOG_ENTRY_OVERHEAD_BYTES,
  LOG_HEADER_OVERHEAD_BYTES,
} from "./constants";
import { stringifyJson } from "./jsonText";
import { setOwn } from "./records";
import type { RequestLogEntry } from "./types";

/** Lower-case `text` except its [REDACTED] markers. */
function lowerCaseAround(text: string): string {
  return text
    .split(REDACTED)
    .map((part) => part.toLowerCase())
    .join(REDACTED);
}

/**
 * Copy the request headers from the raw list (Node's `req.headers` drops a header named `__proto__`):
 * lower-case names, repeated headers joined with ", ", Authorization redacted, any key elsewhere scrubbed
 * (names included).
 */
function loggedHeaders(req: IncomingMessage, ring: KeyRing): Record<string, string> {
  const joined = new Map<string, string>();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    // Names are scrubbed too (a header may be named after a key), before lower-casing changes the key.
    const name = lowerCaseAround(ring.scrub(raw[i] ?? ""));
    const value = raw[i + 1] ?? "";
    const before = joined.get(name);
    joined.set(name, before === undefined ? value : `${before}, ${value}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, text] of joined) {
    setOwn(headers, name, name === "authorization" ? redactAuthorization(text, ring) : ring.scrub(text));
  }
  return headers;
}

let lastMs = Number.NaN;
let lastIso = "";

/** The current time as ISO 8601, formatted at most once per millisecond (the log is on the hot path). */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/**
 * A copy of `text` that does not share memory with the string it was sliced from (V8 keeps the whole
 * parent of a slice alive). UTF-16 round trip: exact, lone surrogates included.
 */
function detached(text: string): string {
  return Buffer.from(text, "utf16le").toString("utf16le");
}

/** Bytes a string may occupy in memory: V8 stores at most two bytes per UTF-16 code unit. */
const textBytes = (text: string): number => 2 * text.length;

/** One logged request: the public entry (completed in place while handled) and its body as JSON text. */
interface Logged {
  entry: RequestLogEntry;
  /** Scrubbed JSON text of the body, when it was kept whole. */
  bodyJson: string | undefined;
}

/** An upper bound of the memory an entry holds: its strings at two bytes per character, plus overheads. */
function cost(entry: RequestLogEntry, bodyJson: string | undefined): number {
  let bytes = LOG_ENTRY_OVERHEAD_BYTES + textBytes(entry.path) + textBytes(entry.query);
  for (const [name, value] of Object.entries(entry.headers)) {
    bytes += LOG_HEADER_OVERHEAD_BYTES + textBytes(name) + textBytes(value);
  }
  if (bodyJson !== undefined) bytes += textBytes(bodyJson);
  if (entry.bodyPreview !== undefined) bytes += textBytes(entry.bodyPreview);
  return bytes;
}

/** An entry as JSON text, its body spliced in from the kept text (never re-serialised). */
function render({ entry, bodyJson }: Logged): string {
  const fields = JSON.stringify(entry);
  return bodyJson === undefined ? fields : `${fields.slice(0, -1)},"body":${bodyJson}}`;
}

/** Entries oldest first, at most `maxEntries` of them and at most `maxBytes` charged bytes. */
export class RequestLog {
  readonly #queue: BoundedQueue<Logged>;
  #seq = 0;
  readonly #byEntry = new WeakMap<RequestLogEntry, Slot<Logged>>();

  /** Keep at most `maxEntries` entries and `maxBytes` charged bytes (oldest dropped first). */
  constructor(maxEntries: number, maxBytes: number) {
    this.#queue = new BoundedQueue(maxEntries, maxBytes);
  }

  /** Begin an entry for an arriving request (status 0 until answered). */
  begin(req: IncomingMessage, path: string, query: string, ring: KeyRing): RequestLogEntry {
    const entry: RequestLogEntry = {
      seq: ++this.#seq,
      at: isoNow(),
      method: req.method ?? "",
      path: ring.scrub(path),
      query: ring.scrub(query),
      headers: loggedHeaders(req, ring),
      status: 0,
    };
    this.#byEntry.set(entry, this.#queue.push({ entry, bodyJson: undefined }, cost(entry, undefined)));
    return entry;
  }

  /**
   * Record the parsed JSON body of `entry` (of `sizeBytes` bytes on the wire), scrubbed of credentials. A
   * body whose JSON text exceeds LOG_BODY_MAX_CHARS is kept as a preview of its first
   * LOG_BODY_PREVIEW_CHARS characters, with `bodyTruncated: true`; so is a body `cut` says is only the
   * start of what was sent (jsonScan.ts `parsedStart`, for a large body never built whole).
   */
  recordBody(entry: RequestLogEntry, body: unknown, sizeBytes: number, ring: KeyRing, cut = false): void {
    const slot = this.#byEntry.get(entry);
    entry.bodyBytes = sizeBytes;
    if (slot === undefined || !this.#queue.holds(slot)) return; // already dropped from the log
    // A string past the limit makes the body a preview, which shows only its start: scrub only that.
    const scrubStart = (s: string): string =>
      ring.scrub(s.length > LOG_BODY_MAX_CHARS ? s.slice(0, LOG_BODY_MAX_CHARS + 1) : s);
    const text = stringifyJson(body, scrubStart, LOG_BODY_MAX_CHARS);
    if (cut || text.length > LOG_BODY_MAX_CHARS) {
      entry.bodyTruncated = true;
      // Scrubbed before cutting: a cut can split "[REDACTED]", never a credential.
      entry.bodyPreview = detached(text.slice(0, LOG_BODY_PREVIEW_CHARS));
    } else slot.item.bodyJson = text;
    this.#queue.recharge(slot, cost(entry, slot.item.bodyJson));
  }

  /** Number of entries and their charged bytes (for tests and benchmarks). */
  size(): { entries: number; bytes: number } {
    return this.#queue.size();
  }

  /** Copies of the entries, oldest first (bodies parsed anew from their text). */
  list(): RequestLogEntry[] {
    return this.#queue.items().map(({ entry, bodyJson }) => {
      const copy: RequestLogEntry = { ...entry, headers: { ...entry.headers } };
      if (bodyJson !== undefined) copy.body = JSON.parse(bodyJson);
      return copy;
    });
  }

  /**
   * The log as a JSON array, in chunks, for streaming: the entries present when called that are still
   * kept when reached. No single string holds the whole listing, and a stalled listing holds no entry the
   * log has dropped.
   */
  listingChunks(): Iterable<string> {
    return this.#queue.chunks(render);
  }

  /** Drop every entry; `resetSeq` also restarts numbering at 1. */
  clear(resetSeq = false): void {
    this.#queue.clear();
    if (resetSeq) this.#seq = 0;
  }
}
