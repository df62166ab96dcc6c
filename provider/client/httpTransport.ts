import { STATUS_CODES } from "node:http";
import { rootCertificates } from "node:tls";
import { Agent, type Dispatcher, interceptors, request } from "undici";
import { ShippingConnectionError } from "../errors/connectionError";
import { ShippingRequestError } from "../errors/requestError";
import { type RedactedRequest, type ResponseInfo, redactAuthorization } from "../errors/requestInfo";
import { ShippingResponseError } from "../errors/responseError";
import { errorBodySchema } from "./apiSchemas";
import {
  DEFAULT_RETRY_SETTINGS,
  type FailedAttempt,
  parseRetryAfter,
  RETRYABLE_ERROR_CODES,
  RETRYABLE_STATUSES,
  type RetrySettings,
  retryDelayMs,
  shouldRetry,
} from "./retryPolicy";

/** Timeouts of one API call, in milliseconds. */
export interface Timeouts {
  /** TCP + TLS connect. */
  readonly connectMs: number;
  /** From sending the request to the response headers (a stalled server). */
  readonly headersMs: number;
  /** Between body chunks. */
  readonly bodyMs: number;
  /** The whole call, retries and backoff included. */
  readonly deadlineMs: number;
}

/** Defaults: generous for a slow service, bounded so that no deployment hangs. */
export const DEFAULT_TIMEOUTS: Timeouts = {
  connectMs: 5_000,
  headersMs: 15_000,
  bodyMs: 15_000,
  deadlineMs: 60_000,
};

/** Idle pooled connections are closed after this many ms. */
const KEEP_ALIVE_TIMEOUT_MS = 10_000;
/** Longest piece of a non-JSON error body quoted in an error. */
const MAX_QUOTED_BODY_CHARS = 500;

/** What the transport needs to build its connection pool. */
export interface TransportOptions {
  readonly timeouts?: Partial<Timeouts>;
  readonly retry?: Partial<RetrySettings>;
  /** Extra trusted CA certificates (PEM) for an API behind a private CA. TLS verification is never off. */
  readonly caCertificates?: string;
  /** A dispatcher to use instead of the pooled Agent (tests pass undici's MockAgent). */
  readonly dispatcher?: Dispatcher;
  /** Whose requests these are, as error messages name it (for example `shop acme`). */
  readonly shop?: string;
}

/** A response after retries. */
export interface TransportResponse extends ResponseInfo {
  readonly request: RedactedRequest;
  readonly statusText: string;
}

/** Plugs the pure retry policy into undici's retry interceptor. */
function retryCallback(settings: RetrySettings): NonNullable<interceptors.RetryInterceptorOpts["retry"]> {
  return (err, { state, opts }, callback) => {
    const failed = err as Error & { statusCode?: number; code?: string; headers?: Record<string, unknown> };
    const retryAfter = failed.headers?.["retry-after"];
    const retryAfterMs = parseRetryAfter(typeof retryAfter === "string" ? retryAfter : undefined);
    const failure: FailedAttempt = {
      attempt: state.counter,
      ...(typeof opts.method === "string" ? { method: opts.method } : {}),
      ...(failed.statusCode !== undefined ? { status: failed.statusCode } : {}),
      ...(failed.statusCode === undefined && failed.code !== undefined ? { errorCode: failed.code } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
    if (!shouldRetry(failure, settings)) {
      callback(err);
      return;
    }
    setTimeout(() => callback(null), retryDelayMs(failure, settings));
    return null;
  };
}

function headerRecord(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/**
 * The credential of an Authorization header in every form a server might echo back (debugging proxies and
 * some error pages quote request headers): the base64 token, padded or not, and the decoded key, also as
 * escaped inside a JSON string. Longest first, so that no form is left half replaced.
 */
function credentialForms(headers: Record<string, string>): string[] {
  const authorization = Object.entries(headers).find(([name]) => name.toLowerCase() === "authorization")?.[1];
  const token = authorization?.split(" ")[1] ?? "";
  if (token === "") return [];
  const key = Buffer.from(token, "base64").toString("utf8");
  const forms = [token, token.replace(/=+$/, ""), key, JSON.stringify(key).slice(1, -1)];
  return [...new Set(forms.filter((form) => form.length >= 4))].sort((a, b) => b.length - a.length);
}

/** `text` with every form of the credential replaced, so that no error quoting the answer carries it. */
function withoutCredential(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join("[REDACTED]");
  return out;
}

function parseBody(text: string): { json: unknown; ok: boolean } {
  if (text.trim() === "") return { json: undefined, ok: true };
  try {
    return { json: JSON.parse(text), ok: true };
  } catch {
    return { json: text.slice(0, MAX_QUOTED_BODY_CHARS), ok: false };
  }
}

/** The API's own message and `errors` entries, when the body has the service's error shape. */
function apiError(body: unknown): { message: string | undefined; details: ShippingRequestError["details"] } {
  const parsed = errorBodySchema.safeParse(body);
  if (!parsed.success) return { message: typeof body === "string" ? body : undefined, details: [] };
  const details = (parsed.data.errors ?? []).map((entry) => ({
    ...(entry.status !== undefined ? { status: entry.status } : {}),
    ...(entry.code !== undefined ? { code: entry.code } : {}),
    ...(entry.title !== undefined ? { title: entry.title } : {}),
    ...(entry.message !== undefined ? { message: entry.message } : {}),
  }));
  return { message: parsed.data.message ?? details[0]?.message, details };
}

function hasErrorsKey(body: unknown): boolean {
  return typeof body === "object" && body !== null && Array.isArray((body as { errors?: unknown }).errors)
    ? (body as { errors: unknown[] }).errors.length > 0
    : false;
}

function connectionFailure(
  req: RedactedRequest,
  error: unknown,
  deadlineMs: number,
): ShippingConnectionError {
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  if (err.name === "TimeoutError" || err.name === "AbortError") {
    return new ShippingConnectionError(
      req,
      `no complete answer within the ${deadlineMs} ms deadline (retries included)`,
      "DEADLINE",
      { cause: error },
    );
  }
  const code = err.code ?? err.cause?.code;
  return new ShippingConnectionError(req, err.message ?? String(error), code, { cause: error });
}

/**
 * HTTP for the Shipping API: a keep-alive pool, timeouts, and retries through undici's retry interceptor.
 * Knows nothing of Pulumi or of subscriptions.
 */
export class HttpTransport {
  readonly #dispatcher: Dispatcher;
  readonly #deadlineMs: number;
  readonly #shop: string | undefined;

  constructor(options: TransportOptions = {}) {
    this.#shop = options.shop;
    const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    const retry = { ...DEFAULT_RETRY_SETTINGS, ...options.retry };
    this.#deadlineMs = timeouts.deadlineMs;
    const base =
      options.dispatcher ??
      new Agent({
        connectTimeout: timeouts.connectMs,
        headersTimeout: timeouts.headersMs,
        bodyTimeout: timeouts.bodyMs,
        keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
        ...(options.caCertificates !== undefined
          ? { connect: { ca: [...rootCertificates, options.caCertificates] } }
          : {}),
      });
    this.#dispatcher = base.compose(
      interceptors.retry({
        throwOnError: false,
        methods: ["GET", "POST", "DELETE"],
        statusCodes: [...RETRYABLE_STATUSES],
        errorCodes: [...RETRYABLE_ERROR_CODES],
        retry: retryCallback(retry),
      }),
    );
  }

  /**
   * Sends one request (retrying transient failures) and returns the final response. Throws
   * {@link ShippingConnectionError} when no response arrived, {@link ShippingRequestError} for a 4xx/5xx or
   * a body with `errors`, and {@link ShippingResponseError} for a 2xx body that is not JSON.
   */
  async send(
    method: "GET" | "POST" | "DELETE",
    url: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<TransportResponse> {
    const redacted: RedactedRequest = {
      method,
      url,
      headers: Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [
          name.toLowerCase(),
          name.toLowerCase() === "authorization" ? redactAuthorization(value) : value,
        ]),
      ),
      ...(this.#shop !== undefined ? { shop: this.#shop } : {}),
    };
    let status: number;
    let responseHeaders: Record<string, string>;
    let text: string;
    try {
      const response = await request(url, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        dispatcher: this.#dispatcher,
        signal: AbortSignal.timeout(this.#deadlineMs),
      });
      const forms = credentialForms(headers);
      status = response.statusCode;
      responseHeaders = Object.fromEntries(
        Object.entries(headerRecord(response.headers)).map(([name, value]) => [
          name,
          withoutCredential(value, forms),
        ]),
      );
      text = withoutCredential(await response.body.text(), forms);
    } catch (error) {
      throw connectionFailure(redacted, error, this.#deadlineMs);
    }
    const parsed = parseBody(text);
    const info: TransportResponse = {
      request: redacted,
      status,
      statusText: STATUS_CODES[status] ?? "",
      headers: responseHeaders,
      body: parsed.json,
    };
    if (status >= 400 || hasErrorsKey(parsed.json)) {
      const { message, details } = apiError(parsed.json);
      throw new ShippingRequestError(redacted, info, info.statusText, message, details);
    }
    if (!parsed.ok) throw new ShippingResponseError(redacted, info, "the body is not JSON");
    return info;
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.#dispatcher.close();
  }
}
