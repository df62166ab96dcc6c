/**
 * Control requests over node:http: the guard against web pages, the JSON body, the handler, and the
 * answer (listings streamed through the listing gate).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  CONTROL_PREFIX,
  DEFAULT_BODY_LIMIT_BYTES,
  MAX_CONCURRENT_EMITS,
  MAX_CONCURRENT_LISTINGS,
} from "./constants";
import { type ControlTarget, handleControl } from "./control";
import { controlRefusal } from "./controlGuard";
import { ApiError, decodeUtf8Body, ERROR_CODES, parseJsonBody } from "./errors";
import { type Answer, contentEncodingProblem, errorAnswer, readBody, send } from "./httpUtil";
import { JsonChunks, type ListingGate, sendChunks } from "./jsonStream";

/** What answering control requests needs. */
export interface ControlDeps {
  target: ControlTarget;
  bodyTimeoutMs: number;
  listingTimeoutMs: number;
  gate: ListingGate;
  /** Counts the events and resends in progress (MAX_CONCURRENT_EMITS). */
  emitGate: ListingGate;
  /** Names besides loopback a Host may give (`allowedHosts`). */
  allowedHosts: ReadonlySet<string>;
  /** Started with `expose`: control requests from other machines are answered (controlGuard.ts). */
  exposed: boolean;
  scrub(text: string): string;
}

/** An error as an answer: ApiError as is, anything else a 500 naming the simulator's own error. */
export function toAnswer(error: unknown, scrub: (text: string) => string): Answer {
  if (error instanceof ApiError) return errorAnswer(error, scrub);
  const message = error instanceof Error ? error.message : String(error);
  return errorAnswer(
    new ApiError(500, ERROR_CODES.generic, "Internal server error", `simulator error: ${message}`),
    scrub,
  );
}

async function readControlJson(req: IncomingMessage, timeoutMs: number): Promise<unknown> {
  const encoding = contentEncodingProblem(req.headers["content-encoding"]);
  if (encoding !== undefined) throw encoding;
  const result = await readBody(req, DEFAULT_BODY_LIMIT_BYTES, timeoutMs);
  if (result.timedOut) {
    throw new ApiError(
      408,
      ERROR_CODES.generic,
      "Request timeout",
      "the request body did not arrive in time",
      {
        connection: "close",
      },
    );
  }
  if (!result.ok) {
    throw new ApiError(
      413,
      ERROR_CODES.generic,
      "Payload too large",
      `the body exceeds ${DEFAULT_BODY_LIMIT_BYTES} bytes`,
    );
  }
  const text = decodeUtf8Body(result.bytes);
  if (text.trim() === "") return {};
  return parseJsonBody(text);
}

const tooManyListings = (): ApiError =>
  new ApiError(
    429,
    ERROR_CODES.generic,
    "Too many requests",
    `${MAX_CONCURRENT_LISTINGS} listings are being sent already; read them to the end (or close them), then retry`,
    { "retry-after": "1" },
  );

const tooManyEmits = (): ApiError =>
  new ApiError(
    429,
    ERROR_CODES.generic,
    "Too many requests",
    `${MAX_CONCURRENT_EMITS} events or resends are in progress already; wait for their answers (read them to the end), then retry`,
    { "retry-after": "1" },
  );

/** Whether a control request sends deliveries (and holds them until its answer is read). */
const sendsDeliveries = (req: IncomingMessage, path: string): boolean =>
  req.method === "POST" &&
  path.startsWith(CONTROL_PREFIX) &&
  /^(events|resend)\/?$/.test(path.slice(CONTROL_PREFIX.length));

/**
 * Answer one control request (path starting with /__sim). Events and resends take a slot of the emit gate
 * for their whole life (sending, then answering), and their answer is streamed as listings are: a reader
 * that takes nothing for `listingTimeoutMs` is cut.
 */
export async function answerControl(
  deps: ControlDeps,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const refusal = controlRefusal(req, deps.allowedHosts);
  const emitting = refusal === undefined && sendsDeliveries(req, path);
  if (emitting && !deps.emitGate.enter()) return send(res, toAnswer(tooManyEmits(), deps.scrub));
  try {
    await answerGated(deps, req, res, path, refusal, emitting);
  } finally {
    if (emitting) deps.emitGate.leave();
  }
}

async function answerGated(
  deps: ControlDeps,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  refusal: ApiError | undefined,
  emitting: boolean,
): Promise<void> {
  let result: Answer;
  try {
    if (refusal !== undefined) throw refusal;
    result = await handleControl(deps.target, {
      method: req.method ?? "",
      path,
      remoteAddress: req.socket.remoteAddress,
      exposed: deps.exposed,
      readJson: () => readControlJson(req, deps.bodyTimeoutMs),
    });
    if (result.body instanceof JsonChunks && req.method !== "HEAD" && !emitting && !deps.gate.enter())
      throw tooManyListings();
  } catch (error) {
    result = toAnswer(error, deps.scrub);
  }
  if (!(result.body instanceof JsonChunks)) return send(res, result);
  if (req.method === "HEAD" || emitting)
    return sendChunks(res, result.status, result.body, deps.listingTimeoutMs);
  try {
    await sendChunks(res, result.status, result.body, deps.listingTimeoutMs);
  } finally {
    deps.gate.leave();
  }
}
