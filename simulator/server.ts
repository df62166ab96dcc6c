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
import { wwwAuthenticate } from "./auth";
import {
  CONNECTIONS_CHECK_INTERVAL_MS,
  DEFAULT_STALL_MS,
  isControlPath,
  MAX_CONCURRENT_EMITS,
} from "./constants";
import type { ControlTarget } from "./control";
import { hostPolicyProblem } from "./controlGuard";
import { answerControl, type ControlDeps, toAnswer } from "./controlHttp";
import { ApiError, ERROR_CODES } from "./errors";
import type { FaultList } from "./faults";
import { type Answer, ClientGoneError, errorAnswer, send } from "./httpUtil";
import { ListingGate } from "./jsonStream";
import {
  answerOnSocket,
  expectationFailed,
  hostProblem,
  parseTarget,
  requestLine,
  type Target,
  transferCodingProblem,
  versionProblem,
} from "./protocol";
import type { RequestLog } from "./requestLog";
import type { RequestLogEntry } from "./types";

/** Everything the server dispatches to. */
interface ServerDeps {
  api: ApiDeps;
  control: ControlTarget;
  log: RequestLog;
  faults: FaultList;
  /** Time a streamed listing may wait for its reader, in milliseconds, before it is cut. */
  listingTimeoutMs: number;
  /** Time the request line and headers may take to arrive, in milliseconds, before the answer is 408. */
  headersTimeoutMs: number;
  /** Names besides loopback a Host may give, lower-case (`allowedHosts`). */
  allowedHosts: ReadonlySet<string>;
  /** Started with `expose`: bound to another address, control requests from other machines answered. */
  exposed: boolean;
}

/** A server plus the means to stop it without waiting for stalled or delayed requests. */
interface SimServer {
  server: Server;
  /** Stop listening, destroy every connection and cancel pending fault timers. */
  close(): Promise<void>;
}

/** Path and query of a target as sent, without interpretation (for the log of a request that is refused). */
function splitRaw(target: string): { rawPath: string; query: string } {
  const q = target.indexOf("?");
  return q === -1
    ? { rawPath: target, query: "" }
    : { rawPath: target.slice(0, q), query: target.slice(q + 1) };
}

/** Statuses Node's HTTP parser errors map to (as its default handler does); anything else is a 400. */
const PARSER_STATUSES: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/** A stand-in for a request Node never turned into an IncomingMessage, for the request log. */
function unparsedRequest(method: string): IncomingMessage {
  return { method, headers: {}, rawHeaders: [] } as unknown as IncomingMessage;
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
    if (a.status === 401)
      a.headers = { ...a.headers, "www-authenticate": wwwAuthenticate(deps.api.switches().authScheme) };
    send(res, a);
  };

  /** Log and answer, on the bare socket, a request Node's parser refused (bad method, huge headers...). */
  const onClientError = (error: Error & { code?: string; rawPacket?: unknown }, socket: Duplex): void => {
    // As Node's own handler: no answer when the peer is gone or a response is already half sent.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent === true) {
      socket.destroy();
      return;
    }
    const line = requestLine(error.rawPacket);
    const version = versionProblem(line.version);
    const status = version?.status ?? PARSER_STATUSES[error.code ?? ""] ?? 400;
    const title = STATUS_CODES[status] ?? "Bad Request";
    const { rawPath, query } = splitRaw(line.target);
    const entry = deps.log.begin(unparsedRequest(line.method), rawPath, query, deps.api.ring);
    entry.status = status;
    const reason =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? "did not arrive in time" : "could not be parsed";
    answerOnSocket(
      socket,
      version ?? new ApiError(status, ERROR_CODES.generic, title, `the HTTP request ${reason}: ${title}`),
    );
  };

  /** CONNECT (authority-form) is no API request: 405, logged, then the connection is closed. */
  const onConnect = (req: IncomingMessage, socket: Duplex): void => {
    const entry = deps.log.begin(req, (req.url ?? "").slice(0, 200), "", deps.api.ring);
    entry.status = 405;
    answerOnSocket(
      socket,
      new ApiError(
        405,
        ERROR_CODES.generic,
        "Method not allowed",
        "CONNECT is not allowed; this is no proxy",
        {
          allow: "GET, HEAD, POST, DELETE",
        },
      ),
    );
  };

  async function onApi(
    req: IncomingMessage,
    res: ServerResponse,
    target: Target,
    refusal: ApiError | undefined,
  ): Promise<void> {
    const scrub = (text: string): string => deps.api.ring.scrub(text);
    const entry = deps.log.begin(req, target.rawPath, target.query, deps.api.ring);
    if (refusal !== undefined) return answer(res, entry, errorAnswer(refusal, scrub));
    const plan = deps.faults.plan({ method: req.method ?? "", path: target.rawPath });
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
    const late = fault?.kind === "late-apply" ? fault : undefined;
    if (late?.gatewayMs !== undefined) after(late.gatewayMs, () => answer(res, entry, gatewayTimeout()));
    let result: Answer;
    try {
      const hold = late === undefined ? undefined : () => lateHold(req, late);
      result = await handleApi(deps.api, req, target.path, entry, hold);
    } catch (error) {
      if (error instanceof ClientGoneError) {
        entry.aborted = true;
        return;
      }
      result = toAnswer(error, scrub);
    }
    if (closed) return;
    if (fault?.kind === "drop-after-write") return drop(req.socket, false);
    if (late !== undefined) {
      entry.appliedStatus = result.status;
      return late.gatewayMs === undefined ? drop(req.socket, false) : undefined;
    }
    answer(res, entry, result);
  }

  /** Holds a late-apply request `ms`, then (with `untilClientGone`) until its client closed the connection. */
  const lateHold = async (req: IncomingMessage, late: { ms: number; untilClientGone?: boolean }) => {
    await delay(late.ms);
    const socket = req.socket;
    if (late.untilClientGone === true && !socket.destroyed)
      await new Promise<void>((resolve) => socket.once("close", () => resolve()));
    // A simulator closed meanwhile applies nothing more (its connections were closed by close()).
    if (closed) await new Promise<never>(() => {});
  };

  /** What a gateway in front of a backend that did not answer in time sends: 504, the error body. */
  const gatewayTimeout = (): Answer =>
    errorAnswer(
      new ApiError(
        504,
        ERROR_CODES.generic,
        "Gateway Timeout",
        "simulated fault: 504 Gateway Timeout (the backend still applies the request)",
      ),
    );

  const controlDeps: ControlDeps = {
    target: deps.control,
    bodyTimeoutMs: deps.api.bodyTimeoutMs,
    listingTimeoutMs: deps.listingTimeoutMs,
    gate: new ListingGate(),
    emitGate: new ListingGate(MAX_CONCURRENT_EMITS),
    allowedHosts: deps.allowedHosts,
    exposed: deps.exposed,
    scrub: (text) => deps.api.ring.scrub(text),
  };

  const server = createServer(
    {
      requireHostHeader: false, // checked in hostProblem, so the 400 has the JSON error body and a log entry
      headersTimeout: deps.headersTimeoutMs,
      connectionsCheckingInterval: CONNECTIONS_CHECK_INTERVAL_MS,
    },
    (req, res) => dispatch(req, res),
  );

  function dispatch(req: IncomingMessage, res: ServerResponse): void {
    let target: Target;
    let refusal: ApiError | undefined;
    try {
      target = parseTarget(req.url ?? "/");
      refusal = versionProblem(req.httpVersion) ?? hostProblem(req);
    } catch (error) {
      target = { ...splitRaw(req.url ?? "/"), path: "" };
      refusal = error as ApiError;
    }
    refusal ??= transferCodingProblem(req) ?? hostPolicyProblem(req, deps.allowedHosts);
    if (refusal !== undefined && isControlPath(target.rawPath)) {
      answer(res, undefined, errorAnswer(refusal));
      return;
    }
    const handled =
      refusal === undefined && isControlPath(target.path)
        ? answerControl(controlDeps, req, res, target.path)
        : onApi(req, res, target, refusal);
    handled.catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed)
        send(
          res,
          toAnswer(error, (t) => deps.api.ring.scrub(t)),
        );
    });
  }
  server.on("clientError", onClientError);
  server.on("connect", onConnect);
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    const target = { ...splitRaw(req.url ?? "/"), path: "" };
    onApi(req, res, target, expectationFailed(req)).catch(() => res.destroy());
  });

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
