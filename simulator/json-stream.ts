/** Answers streamed as JSON text in chunks, so a large listing is never built as one string. */
import { once } from "node:events";
import type { ServerResponse } from "node:http";

/** The body of an answer given as chunks of JSON text (together: one JSON value). */
export class JsonChunks {
  /** Wrap the chunks; they are produced lazily while sending. */
  constructor(readonly chunks: Iterable<string>) {}
}

/**
 * Send `status` with the chunks as a chunked JSON body, waiting for the socket to drain between writes
 * (a slow reader holds at most one chunk in memory). Stops quietly when the client goes away.
 */
export async function sendChunks(res: ServerResponse, status: number, body: JsonChunks): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  for (const chunk of body.chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk)) {
      await Promise.race([once(res, "drain"), once(res, "close")]);
    }
  }
  if (!res.destroyed) res.end();
}
