/**
 * The request log: a bounded ring buffer of API requests. Entries are added when a request arrives and
 * completed (status, shop, body...) as it is handled, so a stalled request is visible with status 0.
 */
import type { IncomingMessage } from "node:http";
import { type KeyRing, redactAuthorization } from "./auth";
import { setOwn } from "./records";
import type { RequestLogEntry } from "./types";

/**
 * Copy the request headers from the raw list (Node's `req.headers` drops a header named `__proto__`):
 * lower-case names, repeated headers joined with ", ", Authorization redacted, any key elsewhere scrubbed
 * (names included).
 */
export function loggedHeaders(req: IncomingMessage, ring: KeyRing): Record<string, string> {
  const joined = new Map<string, string>();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] ?? "").toLowerCase();
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

/** Deep-scrub strings of a parsed JSON body. */
export function scrubJson(value: unknown, ring: KeyRing): unknown {
  if (typeof value === "string") return ring.scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubJson(v, ring));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [ring.scrub(k), scrubJson(v, ring)]));
  }
  return value;
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

/** Bounded ring buffer of entries, oldest first. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private start = 0;
  private seq = 0;

  /** Keep at most `limit` entries. */
  constructor(private readonly limit: number) {}

  /** Begin an entry for an arriving request (status 0 until answered). */
  begin(req: IncomingMessage, path: string, query: string, ring: KeyRing): RequestLogEntry {
    const entry: RequestLogEntry = {
      seq: ++this.seq,
      at: isoNow(),
      method: req.method ?? "",
      path: ring.scrub(path),
      query: ring.scrub(query),
      headers: loggedHeaders(req, ring),
      status: 0,
    };
    if (this.entries.length < this.limit) this.entries.push(entry);
    else {
      this.entries[this.start] = entry;
      this.start = (this.start + 1) % this.limit;
    }
    return entry;
  }

  /** Copies of the entries, oldest first. */
  list(): RequestLogEntry[] {
    const ordered = [...this.entries.slice(this.start), ...this.entries.slice(0, this.start)];
    return ordered.map((e) => structuredClone(e));
  }

  /** Drop every entry; `resetSeq` also restarts numbering at 1. */
  clear(resetSeq = false): void {
    this.entries = [];
    this.start = 0;
    if (resetSeq) this.seq = 0;
  }
}
