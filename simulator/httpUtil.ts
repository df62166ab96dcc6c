/** Small HTTP helpers over node:http: body reading with a size limit, JSON answers, error answers. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_DRAIN_BYTES, MAX_ERROR_ITEMS } from "./constants";
import { ApiError, ERROR_CODES, errorBody, newRequestId } from "./errors";

/** An answer to send: status, extra headers, and a JSON body (absent = empty body). */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * The outcome of reading a body: the bytes, "too large" (the rest was drained, or the socket is to be
 * closed), or "timed out" (the body did not arrive within the time allowed; the socket is to be closed).
 */
type BodyResult =
  | { ok: true; bytes: Buffer; timedOut?: undefined }
  | { ok: false; drained: boolean; timedOut?: undefined }
  | { ok: false; drained: false; timedOut: true };

/** The client closed the connection before its request ended: there is nobody left to answer. */
export class ClientGoneError extends Error {
  /** A ClientGoneError with a fixed message. */
  constructor() {
    super("the client closed the connection before the request body ended");
    this.name = "ClientGoneError";
  }
}

/**
 * Read the request body up to `limitBytes`. Past the limit, bytes are discarded until the end of the request
 * (so the connection stays usable), up to MAX_DRAIN_BYTES, after which reading stops (drained = false).
 * A body not complete within `timeoutMs` of the call is "timed out". Rejects with ClientGoneError if the
 * connection closes before the end.
 */
export function readBody(req: IncomingMessage, limitBytes: number, timeoutMs: number): Promise<BodyResult> {
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > MAX_DRAIN_BYTES)
    return Promise.resolve({ ok: false, drained: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const timer = setTimeout(() => {
      req.pause();
      finish({ ok: false, drained: false, timedOut: true });
    }, timeoutMs);
    const finish = (result: BodyResult | Error): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
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
    req.once("error", () => finish(new ClientGoneError()));
    req.once("close", () => finish(new ClientGoneError()));
  });
}

/**
 * Whether the request declared a body that has not been read to its end when the answer goes out (a GET with
 * `Content-Length: 1000000` trickling in, a refusal before the body is read).
 */
function bodyUnread(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/**
 * The headers of an answer: `headers`, plus `Connection: close` when the request's body is unread, so that
 * Node closes the connection once the answer is sent instead of holding it while it drains that body.
 */
export function answerHeaders<T extends string | number>(
  res: ServerResponse,
  headers: Record<string, T> = {},
): Record<string, T | string> {
  return bodyUnread(res.req) ? { ...headers, connection: "close" } : headers;
}

/** Send an answer as JSON (or an empty body when `body` is undefined). */
export function send(res: ServerResponse, answer: Answer): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string | number> = answerHeaders(res, answer.headers);
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
  const items = error.items
    .slice(0, MAX_ERROR_ITEMS)
    .map((item) => ({ ...item, message: scrub(item.message) }));
  return {
    status: error.status,
    headers: { ...error.headers, "x-request-id": requestId },
    body: errorBody(items, requestId, error.total),
  };
}

/**
 * A 415 for a body in a content coding the simulator cannot decode (any but `identity`; RFC 9110 8.4.1), with
 * `Accept-Encoding: identity` saying what it takes (RFC 9110 12.5.3); undefined when the body is plain.
 */
export function contentEncodingProblem(header: string | undefined): ApiError | undefined {
  const codings = (header ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
  if (codings.length === 0) return undefined;
  return new ApiError(
    415,
    ERROR_CODES.generic,
    "Unsupported media type",
    `Content-Encoding "${codings.join(", ").slice(0, 80)}" cannot be decoded; send the body uncompressed`,
    { "accept-encoding": "identity" },
  );
}
