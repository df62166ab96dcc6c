/**
 * The node:http server: splits control requests from API requests, logs API requests, applies faults, and
 * sends answers. Knows nothing about subscriptions itself.
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { type ApiDeps, handleApi } from "./api";
import { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_STALL_MS } from "./constants";
import { type ControlTarget, handleControl } from "./control";
import { ApiError, ERROR_CODES, parseJsonBody } from "./errors";
import type { FaultList } from "./faults";
import { type Answer, errorAnswer, readBody, send, splitTarget } from "./http-util";
import { JsonChunks, sendChunks } from "./json-stream";
import type { RequestLog } from "./request-log";
import type { RequestLogEntry } from "./types";

/** Everything the server dispatches to. */
export interface ServerDeps {
  api: ApiDeps;
  control: ControlTarget;
  log: RequestLog;
  faults: FaultList;
}

/** A server plus the means to stop it without waiting for stalled or delayed requests. */
export interface SimServer {
  server: Server;
  /** Stop listening, destroy every connection and cancel pending fault timers. */
  close(): Promise<void>;
}

function isControlPath(path: string): boolean {
  return path === "/__sim" || path.startsWith("/__sim/");
}

function toAnswer(error: unknown, scrub: (text: string) => string): Answer {
  if (error instanceof ApiError) return errorAnswer(error, scrub);
  const message = error instanceof Error ? error.message : String(error);
  return errorAnswer(
    new ApiError(500, ERROR_CODES.generic, "Internal server error", `simulator error: ${message}`),
    scrub,
  );
}

async function readControlJson(req: IncomingMessage): Promise<unknown> {
  const result = await readBody(req, DEFAULT_BODY_LIMIT_BYTES);
  if (!result.ok) {
    throw new ApiError(
      413,
      ERROR_CODES.generic,
      "Payload too large",
      `the body exceeds ${DEFAULT_BODY_LIMIT_BYTES} bytes`,
    );
  }
  const text = result.bytes.toString("utf8");
  if (text.trim() === "") return {};
  return parseJsonBody(text);
}

/** Statuses Node's HTTP parser errors map to (as its default handler does); anything else is a 400. */
const PARSER_STATUSES: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * A request Node's parser refused (bad method token, oversized headers, broken framing) never reaches the
 * API handlers; answer it like every other 4xx, with the JSON error body, instead of Node's bare status
 * line. The raw packet (which may hold an Authorization header) is never echoed.
 */
function onClientError(error: Error & { code?: string }, socket: Duplex): void {
  // As Node's own handler: no answer when the peer is gone or a response is already half sent.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const status = PARSER_STATUSES[error.code ?? ""] ?? 400;
  const title = STATUS_CODES[status] ?? "Bad Request";
  const answer = errorAnswer(
    new ApiError(status, ERROR_CODES.generic, title, `the HTTP request could not be parsed: ${title}`),
  );
  const text = JSON.stringify(answer.body);
  const head = [
    `HTTP/1.1 ${status} ${title}`,
    "content-type: application/json; charset=utf-8",
    `content-length: ${Buffer.byteLength(text)}`,
    `x-request-id: ${answer.headers?.["x-request-id"] ?? ""}`,
    "connection: close",
  ];
  socket.end(`${head.join("\r\n")}\r\n\r\n${text}`);
}

/** Create the HTTP server (not yet listening). */
export function createSimServer(deps: ServerDeps): SimServer {
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const after = (ms: number, fn: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed) fn();
    }, ms);
    timers.add(timer);
  };
  const delay = (ms: number): Promise<void> => new Promise((resolve) => after(ms, resolve));

  const drop = (socket: Socket, hard: boolean): void => {
    if (hard) socket.resetAndDestroy();
    else socket.destroy();
  };

  const answer = (res: ServerResponse, entry: RequestLogEntry | undefined, a: Answer): void => {
    if (entry !== undefined) entry.status = a.status;
    send(res, a);
  };

  async function onApi(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: string,
  ): Promise<void> {
    const scrub = (text: string): string => deps.api.ring.scrub(text);
    const entry = deps.log.begin(req, path, query, deps.api.ring);
    const plan = deps.faults.plan(req.method ?? "");
    if (plan.recorded !== undefined) entry.fault = plan.recorded;
    if (plan.latencyMs > 0) await delay(plan.latencyMs);
    const fault = plan.terminal;
    if (fault?.kind === "reset") return drop(req.socket, true);
    if (fault?.kind === "stall") return after(fault.ms ?? DEFAULT_STALL_MS, () => drop(req.socket, false));
    if (fault?.kind === "status") {
      const title = STATUS_CODES[fault.status] ?? "Error";
      const headers: Record<string, string> =
        fault.retryAfterSeconds === undefined ? {} : { "retry-after": String(fault.retryAfterSeconds) };
      const error = new ApiError(
        fault.status,
        ERROR_CODES.generic,
        title,
        `simulated fault: ${fault.status} ${title}`,
        headers,
      );
      return answer(res, entry, errorAnswer(error));
    }
    let result: Answer;
    try {
      result = await handleApi(deps.api, req, path, entry);
    } catch (error) {
      result = toAnswer(error, scrub);
    }
    if (closed) return;
    if (fault?.kind === "drop-after-write") return drop(req.socket, false);
    answer(res, entry, result);
  }

  async function onControl(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    let result: Answer;
    try {
      result = await handleControl(deps.control, {
        method: req.method ?? "",
        path,
        remoteAddress: req.socket.remoteAddress,
        readJson: () => readControlJson(req),
      });
    } catch (error) {
      result = toAnswer(error, (t) => deps.api.ring.scrub(t));
    }
    if (result.body instanceof JsonChunks) return sendChunks(res, result.status, result.body);
    answer(res, undefined, result);
  }

  const server = createServer((req, res) => {
    const { path, query } = splitTarget(req.url ?? "/");
    const handled = isControlPath(path) ? onControl(req, res, path) : onApi(req, res, path, query);
    handled.catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed)
        send(
          res,
          toAnswer(error, (t) => deps.api.ring.scrub(t)),
        );
    });
  });
  server.on("clientError", onClientError);

  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
