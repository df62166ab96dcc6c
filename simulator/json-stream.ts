/** Answers streamed as JSON text in chunks, so a large listing is never built as one string. */
import type { ServerResponse } from "node:http";

/** The body of an answer given as chunks of JSON text (together: one JSON value). */
export class JsonChunks {
  /** Wrap the chunks; they are produced lazily while sending. */
  constructor(readonly chunks: Iterable<string>) {}
}

/** Resolves on the response's next "drain" or "close", removing both listeners either way. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
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
    if (!res.write(chunk)) await drainedOrClosed(res);
  }
  if (!res.destroyed) res.end();
}
