/**
 * Control endpoints under /__sim/ (loopback peers only, never logged, never faulted): state, request log,
 * reset, switches, faults, events, resends and deliveries. HEAD is answered wherever GET is; what keeps web
 * pages out is `controlGuard.ts`.
 */
import { CONTROL_PREFIX } from "./constants";
import { controlPeerAllowed } from "./controlGuard";
import type { EmittedSummary, NotDelivered } from "./deliveryTypes";
import { ApiError, ERROR_CODES } from "./errors";
import { parseEvent, parseResend } from "./eventSchema";
import type { ActiveFault } from "./faults";
import type { Answer } from "./httpUtil";
import { JsonChunks } from "./jsonStream";
import { InvalidInputError, parseFault, parseSwitchesPatch } from "./schemas";
import type { RunningSimulator } from "./types";

/** What the control endpoints act on. */
export type ControlTarget = Pick<
  RunningSimulator,
  | "state"
  | "requests"
  | "clearRequests"
  | "reset"
  | "switches"
  | "setSwitches"
  | "addFault"
  | "clearFaults"
  | "deliveries"
> & {
  activeFaults(): ActiveFault[];
  /** The request log as chunks of one JSON array (streamed, never built as one string). */
  requestChunks(): Iterable<string>;
  /** The delivery log as chunks of one JSON array. */
  deliveryChunks(): Iterable<string>;
  /** `emit`, answered without the attempts' bodies and headers (the HTTP answer stays small). */
  emitSummary(event: unknown): Promise<EmittedSummary | NotDelivered>;
  /** `resend`, answered as `emitSummary`. */
  resendSummary(id: string): Promise<EmittedSummary | NotDelivered>;
};

/** A summary as chunks of one JSON object: one chunk per attempt, so none is built as one large string. */
function* summaryChunks(sent: EmittedSummary): Iterable<string> {
  const { attempts, ...head } = sent;
  yield `${JSON.stringify(head).slice(0, -1)},"attempts":[`;
  for (let i = 0; i < attempts.length; i++) yield `${i === 0 ? "" : ","}${JSON.stringify(attempts[i])}`;
  yield "]}";
}

/** A control request, detached from node:http so it can be tested with any peer address. */
interface ControlRequest {
  method: string;
  /** Path starting with /__sim/. */
  path: string;
  remoteAddress: string | undefined;
  /** The simulator was started with `expose` (control requests from other machines allowed: controlGuard.ts). */
  exposed?: boolean;
  /** Read and parse the JSON body (throws ApiError 400/413 when unusable). */
  readJson(): Promise<unknown>;
}

type Handler = (target: ControlTarget, request: ControlRequest) => Promise<Answer> | Answer;

const ok = (body: unknown, status = 200): Answer => ({ status, body });
const noContent: Answer = { status: 204 };

function invalid(error: unknown): never {
  if (error instanceof InvalidInputError) {
    throw new ApiError(422, ERROR_CODES.generic, "Invalid control request", error.message);
  }
  throw error;
}

/** Read the request's JSON body and hand it to `use`; what `use` refuses (InvalidInputError) is a 422. */
async function withBody<T>(request: ControlRequest, use: (body: unknown) => T | Promise<T>): Promise<T> {
  const body = await request.readJson();
  try {
    return await use(body);
  } catch (error) {
    return invalid(error);
  }
}

const ROUTES: Record<string, Record<string, Handler>> = {
  state: { GET: (t) => ok(t.state()) },
  requests: {
    GET: (t) => ok(new JsonChunks(t.requestChunks())),
    DELETE: (t) => {
      t.clearRequests();
      return noContent;
    },
  },
  reset: {
    POST: async (t) => {
      await t.reset();
      return noContent;
    },
  },
  switches: {
    GET: (t) => ok(t.switches()),
    PATCH: async (t, r) => {
      await withBody(r, (body) => t.setSwitches(parseSwitchesPatch(body)));
      return ok(t.switches());
    },
  },
  faults: {
    GET: (t) => ok(t.activeFaults()),
    POST: async (t, r) => {
      await withBody(r, (body) => t.addFault(parseFault(body)));
      return ok(t.activeFaults(), 201);
    },
    DELETE: (t) => {
      t.clearFaults();
      return noContent;
    },
  },
  events: {
    POST: async (t, r) => {
      const sent = await withBody(r, (body) => t.emitSummary(parseEvent(body)));
      return ok(sent.delivered ? new JsonChunks(summaryChunks(sent)) : sent);
    },
  },
  resend: {
    POST: async (t, r) => {
      const id = await withBody(r, parseResend);
      const sent = await t.resendSummary(id);
      if (sent.delivered) return ok(new JsonChunks(summaryChunks(sent)));
      throw new ApiError(404, ERROR_CODES.generic, "Not found", sent.reason);
    },
  },
  deliveries: { GET: (t) => ok(new JsonChunks(t.deliveryChunks())) },
};

/** Every control endpoint as "METHOD /__sim/name" (HEAD left out: it follows GET), for docs and tests. */
export function controlEndpoints(): string[] {
  return Object.entries(ROUTES).flatMap(([name, methods]) =>
    Object.keys(methods).map((method) => `${method} ${CONTROL_PREFIX}${name}`),
  );
}

/** Methods a route takes: its own, and HEAD wherever it has GET (RFC 9110 9.3.2). */
function allowed(methods: Record<string, Handler>): string[] {
  const names = Object.keys(methods);
  return names.includes("GET") ? ["GET", "HEAD", ...names.filter((m) => m !== "GET")] : names;
}

/** The control prefix at the start of a path, its trailing slash optional: `^/__sim/?`. */
const PREFIX_PATTERN = new RegExp(`^${CONTROL_PREFIX}?`);

/** Handle one control request; throws ApiError for 403/404/405/4xx. */
export async function handleControl(target: ControlTarget, request: ControlRequest): Promise<Answer> {
  if (!controlPeerAllowed(request.remoteAddress, request.exposed === true)) {
    throw new ApiError(
      403,
      ERROR_CODES.generic,
      "Forbidden",
      "control endpoints answer loopback peers only, unless the simulator was started with --expose",
    );
  }
  const name = request.path.replace(PREFIX_PATTERN, "").replace(/\/$/, "");
  const methods = Object.hasOwn(ROUTES, name) ? ROUTES[name] : undefined;
  if (methods === undefined) {
    throw new ApiError(
      404,
      ERROR_CODES.generic,
      "Not found",
      `no control endpoint ${CONTROL_PREFIX}${name.slice(0, 100)}; see README`,
    );
  }
  const method = request.method === "HEAD" ? "GET" : request.method;
  const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
  if (handler === undefined) {
    const allow = allowed(methods).join(", ");
    throw new ApiError(
      405,
      ERROR_CODES.generic,
      "Method not allowed",
      `${request.method} is not allowed here; allowed: ${allow}`,
      {
        allow,
      },
    );
  }
  return handler(target, request);
}
