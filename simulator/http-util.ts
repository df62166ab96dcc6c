/** Small HTTP helpers over node:http: body reading with a size limit, JSON answers, error answers. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_DRAIN_BYTES } from "./constants";
import { type ApiError, errorBody, newRequestId } from "./errors";

/** An answer to send: status, extra headers, and a JSON body (absent = empty body). */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** The outcome of reading a body: the bytes, or "too-large" (the rest was drained or the socket is to be closed). */
export type BodyResult = { ok: true; bytes: Buffer } | { ok: false; drained: boolean };

/**
 * Read the request body up to `limitBytes`. Past the limit, bytes are discarded until the end of the request
 * (so the connection stays usable), up to MAX_DRAIN_BYTES, after which reading stops (drained = false).
 * Rejects if the connection closes before the end.
 */
export function readBody(req: IncomingMessage, limitBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > MAX_DRAIN_BYTES)
    return Promise.resolve({ ok: false, drained: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyResult | Error): void => {
      if (done) return;
      done = true;
      req.off("data", onData);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limitBytes) chunks.push(chunk);
      else if (size > MAX_DRAIN_BYTES) {
        req.pause();
        finish({ ok: false, drained: false });
      }
    };
    req.on("data", onData);
    req.once("end", () =>
      finish(
        size > limitBytes ? { ok: false, drained: true } : { ok: true, bytes: Buffer.concat(chunks, size) },
      ),
    );
    req.once("error", (error) => finish(error));
    req.once("close", () => finish(new Error("connection closed before the request body ended")));
  });
}

/** Send an answer as JSON (or an empty body when `body` is undefined). */
export function send(res: ServerResponse, answer: Answer): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string | number> = { ...answer.headers };
  if (answer.body === undefined) {
    res.writeHead(answer.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(answer.body);
  headers["content-type"] = "application/json; charset=utf-8";
  headers["content-length"] = Buffer.byteLength(text);
  res.writeHead(answer.status, headers);
  res.end(text);
}

/** Turn an ApiError into an answer with the production error body and an `x-request-id` header. */
export function errorAnswer(error: ApiError, scrub: (text: string) => string = (t) => t): Answer {
  const requestId = newRequestId();
  const items = error.items.map((item) => ({ ...item, message: scrub(item.message) }));
  return {
    status: error.status,
    headers: { ...error.headers, "x-request-id": requestId },
    body: errorBody(items, requestId),
  };
}

/** Split a request target into path and query (without the "?"). */
export function splitTarget(target: string): { path: string; query: string } {
  const q = target.indexOf("?");
  return q === -1 ? { path: target, query: "" } : { path: target.slice(0, q), query: target.slice(q + 1) };
}
