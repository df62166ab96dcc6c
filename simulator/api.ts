/**
 * The Shipping Service API: root status, and POST / GET (HEAD) / DELETE of webhook subscriptions. Checks run
 * in a fixed order: path (404), method (405), User-Agent when required (400), Authorization (401), rate limit
 * (429), Accept (406), key role (403), then per endpoint Content-Type and Content-Encoding (415), body time
 * (408), size (413), UTF-8 and JSON (400), content (422 / 400), ids (403 / 404).
 */
import type { IncomingMessage } from "node:http";
import { authenticate, type Identity, type KeyRing, schemeWord } from "./auth";
import {
  DEFAULT_BODY_LIMIT_BYTES,
  LOG_BODY_MAX_CHARS,
  REQUIRED_USER_AGENT,
  SCANNED_BODY_MIN_CHARS,
  SERVICE_TITLE,
  SIM_ACCOUNT_ID,
} from "./constants";
import { ApiError, decodeUtf8Body, ERROR_CODES, parseJsonBody } from "./errors";
import { type Answer, contentEncodingProblem, readBody } from "./httpUtil";
import { isJsonText, parsedStart } from "./jsonScan";
import { describeValue } from "./jsonText";
import { type RateLimiter, rateLimitSettings } from "./rateLimit";
import type { RequestLog } from "./requestLog";
import { allowedMethods, type Route, route } from "./router";
import type { SubscriptionStore } from "./store";
import type { RequestLogEntry, Subscription, Switches } from "./types";
import {
  acceptsJson,
  isJsonContentType,
  parseIdList,
  validateCreateBody,
  validateCreateText,
} from "./validation";

/** What the API handler needs from the simulator. */
export interface ApiDeps {
  store: SubscriptionStore;
  ring: KeyRing;
  limiter: RateLimiter;
  switches(): Switches;
  /** Persist the store; resolves when durable (immediately when in memory). */
  persist(): Promise<void>;
  /** Time a request body may take to arrive, in milliseconds, before the answer is 408. */
  bodyTimeoutMs: number;
  /** The request log, to record bodies in. */
  log: RequestLog;
}

function generic(
  status: number,
  title: string,
  message: string,
  headers: Record<string, string> = {},
): ApiError {
  return new ApiError(status, ERROR_CODES.generic, title, message, headers);
}

function checkAccept(req: IncomingMessage): void {
  if (!acceptsJson(req.headers.accept)) {
    throw generic(
      406,
      "Not acceptable",
      "this endpoint answers application/json; send Accept: application/json",
    );
  }
}

/** The first product of a User-Agent value is the API version the spec requires (name case-insensitive). */
const REQUIRED_PRODUCT = new RegExp(`^\\s*${REQUIRED_USER_AGENT.replace("/", "\\/")}(?:\\s|$)`, "i");

/** With the `requireUserAgent` switch, a request without `User-Agent: CustomApiCall/2` is malformed: 400. */
function checkUserAgent(deps: ApiDeps, req: IncomingMessage): void {
  if (!deps.switches().requireUserAgent) return;
  const sent = req.headers["user-agent"];
  if (sent !== undefined && REQUIRED_PRODUCT.test(sent)) return;
  const got =
    sent === undefined || sent.trim() === ""
      ? "it is missing"
      : `got ${describeValue(deps.ring.scrub(sent))}`;
  throw generic(
    400,
    "Bad request",
    `the User-Agent header names the API version: send "User-Agent: ${REQUIRED_USER_AGENT}" (${got})`,
  );
}

/** How many Authorization lines the request has (Node's `req.headers` keeps only the first). */
function authorizationLines(req: IncomingMessage): number {
  let lines = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]?.toLowerCase() === "authorization") lines += 1;
  }
  return lines;
}

function checkRateLimit(deps: ApiDeps, identity: Identity, method: string): void {
  const switches = deps.switches();
  const settings = rateLimitSettings(switches.rateLimit);
  if (settings === undefined) return;
  const decision = deps.limiter.check(settings, identity.key, method, Date.now());
  if (decision.allowed) return;
  const headers: Record<string, string> = switches.retryAfter
    ? { "retry-after": String(decision.retryAfterSeconds) }
    : {};
  throw generic(
    429,
    "Too many requests",
    `rate limit exceeded: at most ${decision.limit} ${method} requests per ${settings.windowMs} ms per API key`,
    headers,
  );
}

/** A POST body as read: parsed whole, or (a large one) its JSON text, checked, to be read an item at a time. */
type ReadBody = { value: unknown; text?: undefined } | { text: string };

/**
 * The body as JSON: a large body that is valid JSON stays text (validateCreateText reads its items one at a
 * time, the request log gets its start), any other is parsed whole (a malformed one gets JSON.parse's 400).
 */
function parsedBody(deps: ApiDeps, entry: RequestLogEntry, text: string, bytes: number): ReadBody {
  if (text.length >= SCANNED_BODY_MIN_CHARS && isJsonText(text)) {
    const whole = { start: 0, end: text.length };
    const { value, cut } = parsedStart(text, whole, LOG_BODY_MAX_CHARS + 1);
    deps.log.recordBody(entry, value, bytes, deps.ring, cut);
    return { text };
  }
  const value = parseJsonBody(text);
  deps.log.recordBody(entry, value, bytes, deps.ring);
  return { value };
}

async function readJsonBody(deps: ApiDeps, req: IncomingMessage, entry: RequestLogEntry): Promise<ReadBody> {
  if (!isJsonContentType(req.headers["content-type"])) {
    throw generic(
      415,
      "Unsupported media type",
      'send the body as JSON with "Content-Type: application/json; charset=utf-8"',
    );
  }
  const encoding = contentEncodingProblem(req.headers["content-encoding"]);
  if (encoding !== undefined) throw encoding;
  const result = await readBody(req, DEFAULT_BODY_LIMIT_BYTES, deps.bodyTimeoutMs);
  if (result.timedOut) {
    const seconds = deps.bodyTimeoutMs / 1000;
    const message = `the request body did not arrive within ${seconds} s; send it at once, with a correct Content-Length`;
    throw generic(408, "Request timeout", message, { connection: "close" });
  }
  if (!result.ok) {
    const headers: Record<string, string> = result.drained ? {} : { connection: "close" };
    throw generic(413, "Payload too large", `the body exceeds ${DEFAULT_BODY_LIMIT_BYTES} bytes`, headers);
  }
  return parsedBody(deps, entry, decodeUtf8Body(result.bytes), result.bytes.length);
}

function listed(deps: ApiDeps, shop: string, subs: Subscription[]): Record<string, unknown>[] {
  if (deps.switches().shopFields === "omitted") return subs.map(({ id, hook, url }) => ({ id, hook, url }));
  const shopId = deps.store.shopNumber(shop);
  return subs.map((s) => ({
    id: s.id,
    hook: s.hook,
    url: s.url,
    shop_id: shopId,
    account_id: SIM_ACCOUNT_ID,
  }));
}

function notFound(ids: number[], suffix: string): ApiError {
  const named =
    ids.length === 1 ? `subscription id ${ids[0]} was` : `subscription ids ${ids.join(", ")} were`;
  return new ApiError(
    404,
    ERROR_CODES.subscriptionNotFound,
    "Subscription not found",
    `${named} not found${suffix}`,
  );
}

async function create(
  deps: ApiDeps,
  req: IncomingMessage,
  entry: RequestLogEntry,
  shop: string,
  hold: Hold,
): Promise<Answer> {
  const body = await readJsonBody(deps, req, entry);
  await hold();
  const items = body.text === undefined ? validateCreateBody(body.value) : validateCreateText(body.text);
  const ids = deps.store.create(shop, items, deps.switches().overwrite);
  await deps.persist();
  return { status: 200, body: { data: { ids: ids.map((id) => ({ id })) } } };
}

function get(deps: ApiDeps, r: Route, shop: string): Answer {
  const status = deps.switches().getStatus;
  if (r.kind !== "ids")
    return { status, body: { data: { webhook_subscriptions: listed(deps, shop, deps.store.list(shop)) } } };
  const ids = parseIdList(r.segment);
  const found = deps.store.get(shop, ids);
  if (found.length === 0) throw notFound(ids, " in this shop");
  if (found.length < new Set(ids).size && deps.switches().partialIds === "404") {
    const known = new Set(found.map((s) => s.id));
    throw notFound(
      ids.filter((id) => !known.has(id)),
      " in this shop",
    );
  }
  return { status, body: { data: { webhook_subscriptions: listed(deps, shop, found) } } };
}

async function remove(deps: ApiDeps, segment: string, shop: string): Promise<Answer> {
  const ids = parseIdList(segment);
  const owners = ids.map((id) => deps.store.owner(id));
  const missing = ids.filter((_, i) => owners[i] === undefined);
  const { partialIds, deleteCheckOrder } = deps.switches();
  const unknownDecides = missing.length === ids.length || (missing.length > 0 && partialIds === "404");
  if (unknownDecides && deleteCheckOrder === "existence") throw notFound(missing, "; nothing was deleted");
  if (owners.some((owner) => owner !== undefined && owner !== shop)) {
    throw new ApiError(
      403,
      ERROR_CODES.permissionDenied,
      "Permission denied",
      "Permission Denied. (deleteResourceOwnedByOthers)",
    );
  }
  if (unknownDecides) throw notFound(missing, "; nothing was deleted");
  deps.store.remove(ids);
  await deps.persist();
  return { status: 204 };
}

/** Waits before a request is applied, once it has been read (a `late-apply` fault holds it there). */
type Hold = () => Promise<void>;

/**
 * Handle one API request (faults already applied). Throws ApiError for every 4xx. `hold` is awaited once
 * the request is read (credentials checked, body received) and before it is applied.
 */
export async function handleApi(
  deps: ApiDeps,
  req: IncomingMessage,
  path: string,
  entry: RequestLogEntry,
  hold: Hold = async () => {},
): Promise<Answer> {
  const method = req.method ?? "";
  const r = route(path);
  if (r.kind === "unknown") {
    throw generic(
      404,
      "Not found",
      `no such endpoint: ${method} ${path.slice(0, 200)}; see GET / and /webhook_subscriptions`,
    );
  }
  const allowed = allowedMethods(r);
  if (!allowed.includes(method)) {
    throw generic(
      405,
      "Method not allowed",
      `${method} is not allowed here; allowed: ${allowed.join(", ")}`,
      {
        allow: allowed.join(", "),
      },
    );
  }
  if (r.kind === "root") {
    checkAccept(req);
    return { status: 200, body: { title: SERVICE_TITLE, status: "OK" } };
  }
  checkUserAgent(deps, req);
  const header = req.headers.authorization;
  const word = header === undefined ? undefined : schemeWord(header, deps.ring);
  if (word !== undefined) entry.authScheme = word;
  const identity = authenticate(header, deps.switches().authScheme, deps.ring, authorizationLines(req));
  entry.shop = identity.shop;
  entry.keyRole = identity.role;
  const reading = method === "GET" || method === "HEAD";
  checkRateLimit(deps, identity, reading ? "GET" : method);
  checkAccept(req);
  if (!reading && identity.role === "read-only") {
    throw new ApiError(
      403,
      ERROR_CODES.permissionDenied,
      "Permission denied",
      `this API key is read-only; ${method} needs a read-write key`,
    );
  }
  if (method === "POST") return create(deps, req, entry, identity.shop, hold);
  await hold();
  if (reading) return get(deps, r, identity.shop);
  return remove(deps, r.kind === "ids" ? r.segment : "", identity.shop);
}
