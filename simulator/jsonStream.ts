/**
 * Answers streamed as JSON text in chunks, so a large listing is never built as one string; at most
 * MAX_CONCURRENT_LISTINGS stream at once, and a reader that stops reading is cut off (issue 29, defect 4).
 */
import type { ServerResponse } from "node:http";
import { MAX_CONCURRENT_LISTINGS } from "./constants";
import { answerHeaders } from "./httpUtil";

/** The body of an answer given as chunks of JSON text (together: one JSON value). */
export class JsonChunks {
  /** Wrap the chunks; they are produced lazily while sending. */
  constructor(readonly chunks: Iterable<string>) {}
}

/** Counts the listings being sent, so a crowd of stalled readers cannot hold the process's memory. */
export class ListingGate {
  #inProgress = 0;

  /** A gate of `limit` slots (default MAX_CONCURRENT_LISTINGS). */
  constructor(readonly limit = MAX_CONCURRENT_LISTINGS) {}

  /** Take a slot; false when `limit` are taken already. */
  enter(): boolean {
    if (this.#inProgress >= this.limit) return false;
    this.#inProgress += 1;
    return true;
  }

  /** Give a slot back. */
  leave(): void {
    this.#inProgress = Math.max(0, this.#inProgress - 1);
  }
}

/** Resolves true on the response's next "drain", false on "close" or after `stallMs` without one. */
function drained(res: ServerResponse, stallMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(ok);
    };
    const onDrain = (): void => done(true);
    const onClose = (): void => done(false);
    const timer = setTimeout(() => done(false), stallMs);
    res.on("drain", onDrain);
    res.on("close", onClose);
  });
}

/**
 * Send `status` with the chunks as a chunked JSON body, waiting for the socket to drain between writes
 * (a slow reader holds at most one chunk in memory). A reader that takes nothing for `stallMs` has its
 * connection destroyed; a reader that goes away ends the listing quietly. A HEAD request gets the headers
 * only (nothing is rendered).
 */
export async function sendChunks(
  res: ServerResponse,
  status: number,
  body: JsonChunks,
  stallMs: number,
): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, answerHeaders(res, { "content-type": "application/json; charset=utf-8" }));
  if (res.req.method === "HEAD") {
    res.end();
    return;
  }
  for (const chunk of body.chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk) && !(await drained(res, stallMs))) {
      res.destroy();
      return;
    }
  }
  if (!res.destroyed) res.end();
}
