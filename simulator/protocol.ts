/**
 * HTTP/1.1 message rules (RFC 9110 / 9112) checked before any route: the request target (origin-form and
 * absolute-form, percent-encoded unreserved characters decoded, one trailing slash ignored), the Host header
 * and its value, transfer codings, and answers written straight to a socket for requests Node's parser refuses.
 */
import { type IncomingMessage, STATUS_CODES } from "node:http";
import { isIPv6 } from "node:net";
import type { Duplex } from "node:stream";
import { CLOSE_LINGER_MS } from "./constants";
import { ApiError, ERROR_CODES } from "./errors";
import { errorAnswer } from "./httpUtil";

/** A request target split into a normalised path (for routing), the path as sent (for the log) and the query. */
export interface Target {
  /** Percent-encoded unreserved characters decoded, one trailing slash removed (except for "/"). */
  path: string;
  /** The path as sent (absolute-form reduced to its path). */
  rawPath: string;
  query: string;
}

/** Percent-encodings of unreserved characters (RFC 3986 2.3): ALPHA, DIGIT, "-", ".", "_", "~". */
const ENCODED_UNRESERVED = /%(2d|2e|3[0-9]|4[1-9a-f]|5[0-9a]|5f|6[1-9a-f]|7[0-9a]|7e)/gi;
const ABSOLUTE_FORM = /^([a-z][a-z0-9+.-]*):\/\/[^/?#]*/i;
/** Characters of an origin-form target (RFC 3986 pchar, "/", "?", and "%" of a percent-encoding). */
const TARGET_TEXT = /^[a-z0-9\-._~!$&'()*+,;=:@/?%]*$/i;
const LONGEST_SHOWN = 200;

function badTarget(target: string, why: string): ApiError {
  return new ApiError(
    400,
    ERROR_CODES.generic,
    "Bad request",
    `the request target "${target.slice(0, LONGEST_SHOWN)}" ${why}; send a path such as /webhook_subscriptions`,
  );
}

/**
 * Parse a request target: origin-form (`/path?query`) or absolute-form (`http://host/path?query`, which a
 * server must accept). Throws a 400 ApiError for anything else (asterisk-form, a fragment, a stray "%").
 */
export function parseTarget(target: string): Target {
  let rest = target;
  const absolute = ABSOLUTE_FORM.exec(target);
  if (absolute !== null) {
    const scheme = (absolute[1] ?? "").toLowerCase();
    if (scheme !== "http" && scheme !== "https") throw badTarget(target, `uses the scheme "${scheme}"`);
    rest = target.slice(absolute[0].length);
    if (rest === "" || rest.startsWith("?")) rest = `/${rest}`;
  }
  if (!rest.startsWith("/")) throw badTarget(target, "is neither a path starting with / nor an absolute URL");
  if (!TARGET_TEXT.test(rest)) throw badTarget(target, "has a character that must be percent-encoded");
  if (/%(?![0-9a-f]{2})/i.test(rest))
    throw badTarget(target, 'has a "%" that does not start a percent-encoding');
  const q = rest.indexOf("?");
  const rawPath = q === -1 ? rest : rest.slice(0, q);
  const query = q === -1 ? "" : rest.slice(q + 1);
  let path = rawPath.replace(ENCODED_UNRESERVED, (encoded) => decodeURIComponent(encoded));
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return { path, rawPath, query };
}

/** `host[:port]`: an IP literal in brackets or a reg-name, then an optional port (RFC 3986 3.2.2, 3.2.3). */
const HOST_VALUE = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d*))?$/;
/** A reg-name: unreserved, sub-delims and percent-encodings (RFC 3986 3.2.2). */
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
/** Largest TCP port. */
const MAX_PORT = 65_535;

/** Why a Host value is not `uri-host [":" port]` (RFC 9112 3.2), or undefined when it is. */
function hostValueProblem(value: string): string | undefined {
  const match = HOST_VALUE.exec(value);
  if (match === null) return "is not a host name or address with an optional :port";
  const [, host = "", port] = match;
  if (host.startsWith("[")) {
    if (!isIPv6(host.slice(1, -1))) return "holds a bracketed literal that is not an IPv6 address";
  } else if (!REG_NAME.test(host)) return "holds a character a host name cannot have";
  if (port !== undefined && port !== "" && Number(port) > MAX_PORT) return `has a port above ${MAX_PORT}`;
  return undefined;
}

/** The Host header's lines, from the raw list (Node's `req.headers.host` keeps only the first). */
function hostLines(req: IncomingMessage): string[] {
  const lines: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]?.toLowerCase() === "host") lines.push(req.rawHeaders[i + 1] ?? "");
  }
  return lines;
}

/**
 * A 400 for an HTTP/1.1 request without exactly one Host header, or with a Host value that is not
 * `host[:port]` (RFC 9112 3.2); undefined otherwise.
 */
export function hostProblem(req: IncomingMessage): ApiError | undefined {
  const hosts = hostLines(req);
  const bad = (why: string): ApiError =>
    new ApiError(400, ERROR_CODES.generic, "Bad request", `the request ${why}`);
  if (hosts.length === 0)
    return req.httpVersion === "1.0" ? undefined : bad("has no Host header; send exactly one");
  if (hosts.length > 1) return bad(`has ${hosts.length} Host headers; send exactly one`);
  const value = hosts[0] ?? "";
  const problem = hostValueProblem(value);
  if (problem === undefined) return undefined;
  return bad(
    `Host header "${value.slice(0, LONGEST_SHOWN)}" ${problem} (RFC 9112 3.2); send the host and port of the URL, e.g. Host: 127.0.0.1:4010`,
  );
}

/**
 * A 501 for a Transfer-Encoding other than `chunked` alone (RFC 9112 6.1: a server that does not understand
 * a transfer coding answers 501): Node would decode only the chunked framing and hand on a body still in the
 * other coding. The connection is closed after the answer, since the body is not read.
 */
export function transferCodingProblem(req: IncomingMessage): ApiError | undefined {
  const codings: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]?.toLowerCase() !== "transfer-encoding") continue;
    for (const coding of (req.rawHeaders[i + 1] ?? "").split(",")) {
      if (coding.trim() !== "") codings.push(coding.trim().toLowerCase());
    }
  }
  const other = codings.filter((coding) => coding !== "chunked");
  if (other.length === 0) return undefined;
  return new ApiError(
    501,
    ERROR_CODES.generic,
    "Not implemented",
    `Transfer-Encoding "${codings.join(", ").slice(0, LONGEST_SHOWN)}" is not supported: only chunked is decoded; send the body with Content-Length, or with Transfer-Encoding: chunked alone`,
    { connection: "close" },
  );
}

/** A 417 for an `Expect` other than 100-continue (RFC 9110 10.1.1). */
export function expectationFailed(req: IncomingMessage): ApiError {
  const value = String(req.headers.expect ?? "").slice(0, LONGEST_SHOWN);
  return new ApiError(
    417,
    ERROR_CODES.generic,
    "Expectation failed",
    `Expect: ${value} is not supported; send no Expect header, or Expect: 100-continue`,
  );
}

/** The method, target and version of the request line a refused packet starts with (for the request log). */
export function requestLine(rawPacket: unknown): { method: string; target: string; version: string } {
  const text = Buffer.isBuffer(rawPacket) ? rawPacket.subarray(0, 2048).toString("latin1") : "";
  const [method = "", target = "", version = ""] = (text.split("\r\n")[0] ?? "").split(" ");
  return {
    method: method.slice(0, 32),
    target: target.slice(0, LONGEST_SHOWN),
    version: version.slice(0, 16),
  };
}

/**
 * A 505 for a request line whose HTTP version is not 1.x (`HTTP/2.0`, `HTTP/3.0`, `HTTP/0.9`): RFC 9110 15.6.6,
 * the simulator speaks HTTP/1.1 only. `version` is as sent (`HTTP/2.0`) or as Node parsed it (`2.0`);
 * undefined for 1.x and for anything that is no version at all (left to the 400 of the parser).
 */
export function versionProblem(version: string): ApiError | undefined {
  const match = /^(?:HTTP\/)?(\d)\.(\d)$/.exec(version);
  if (match === null || match[1] === "1") return undefined;
  return new ApiError(
    505,
    ERROR_CODES.generic,
    "HTTP version not supported",
    `HTTP/${match[1]}.${match[2]} is not supported: send HTTP/1.1 requests`,
    { connection: "close" },
  );
}

/**
 * Close `socket` once what was written is sent and the client closed its end, or CLOSE_LINGER_MS later at
 * the latest: ending only our side would leave the descriptor held for as long as the client keeps its end.
 * What the client still sends is read and discarded, so the close is not turned into a reset by unread data.
 */
function closeAfterAnswer(socket: Duplex): void {
  let timer: NodeJS.Timeout | undefined;
  socket.once("finish", () => {
    timer = setTimeout(() => socket.destroy(), CLOSE_LINGER_MS);
    timer.unref();
  });
  socket.once("close", () => clearTimeout(timer));
  socket.on("end", () => socket.destroy());
  socket.resume();
}

/**
 * Answer an error straight on the socket, in the JSON error shape, and close the connection: for requests
 * Node's parser refused and for CONNECT, which never become a request/response pair.
 */
export function answerOnSocket(socket: Duplex, error: ApiError): void {
  const answer = errorAnswer(error);
  const text = JSON.stringify(answer.body);
  const title = STATUS_CODES[error.status] ?? "Error";
  const extra = Object.entries(error.headers).map(([name, value]) => `${name}: ${value}`);
  const head = [
    `HTTP/1.1 ${error.status} ${title}`,
    "content-type: application/json; charset=utf-8",
    `content-length: ${Buffer.byteLength(text)}`,
    `x-request-id: ${answer.headers?.["x-request-id"] ?? ""}`,
    ...extra,
    "connection: close",
  ];
  socket.end(`${head.join("\r\n")}\r\n\r\n${text}`);
  closeAfterAnswer(socket);
}
