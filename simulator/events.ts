/**
 * Events and webhook deliveries: build the notifications for an event (fixtures.ts), POST each over HTTPS
 * to the shop's subscribed URL with retries, backoff, duplicates and batching as the switches say, and
 * record every attempt in the bounded delivery log. `resend` sends a logged delivery again.
 */
import { randomUUID } from "node:crypto";
import type { Agent } from "undici";
import type { Hook } from "../contract/hooks";
import {
  API_KEY_HEADER,
  DELIVERY_ID_HEADER,
  DELIVERY_USER_AGENT,
  FIRST_FIXTURE_SHIPMENT_ID,
  HOOK_HEADER,
  MAX_DELIVERY_BODY_BYTES,
  MAX_DELIVERY_WAIT_MS,
  MAX_EMIT_BODY_BYTES,
} from "./constants";
import { type AttemptOutcome, deliveryAgent, postOnce } from "./deliveryHttp";
import { asDelivery, DeliveryLog, type LoggedDelivery, type Sent } from "./deliveryLog";
import { deliveryOrder } from "./deliveryOrder";
import type { AttemptResult, Delivery, DeliverySend, NotDelivered, SimEvent } from "./deliveryTypes";
import { eventPayloads, neverNotifies } from "./fixtures";
import { stringifyJson } from "./jsonText";
import { InvalidInputError } from "./schemas";
import type { SubscriptionStore } from "./store";
import type { Switches } from "./types";

/** What the deliverer works with. */
interface DelivererDeps {
  store: SubscriptionStore;
  switches(): Switches;
  /** Base64 of the shop's first read-write key, sent in API_KEY_HEADER. */
  apiKeyToken(shop: string): string | undefined;
  /** Redacts API keys (from answers the receiver echoes). */
  scrub(text: string): string;
  /** The shop an event without `shop` goes to. */
  firstShop: string;
  /** PEM of extra CA(s) trusted for deliveries. */
  extraCa: string | undefined;
  /** Bound of the delivery log, in charged bytes. */
  logBytes: number;
  /** Told about every attempt. */
  onAttempt: ((attempt: Delivery) => void) | undefined;
}

/** One delivery to send (or send again): its id, where, and the body as JSON text. */
interface Target {
  id: string;
  shop: string;
  hook: Hook;
  url: string;
  bodyText: string;
  events: number;
  /** Base64 of the event's `senderKey`, sent instead of the shop's key. */
  senderToken?: string;
}

/** Whether an attempt's outcome counts as accepted under `deliveryFailure`. */
function attemptResult(outcome: AttemptOutcome, failure: Switches["deliveryFailure"]): AttemptResult {
  if (outcome.status === undefined) return outcome.timedOut ? "timeout" : "unreachable";
  const failed = failure === "5xx" ? outcome.status >= 500 : outcome.status < 200 || outcome.status > 299;
  return failed ? "refused" : "accepted";
}

/** Wait before attempt `attempt + 1`: the backoff, doubled for each attempt after the first, capped. */
export function backoffMs(baseMs: number, attempt: number): number {
  return Math.min(MAX_DELIVERY_WAIT_MS, baseMs * 2 ** (attempt - 1));
}

function chunked<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, (i + 1) * size),
  );
}

/** Sends notifications and records every attempt. */
export class Deliverer {
  readonly #agent: Agent;
  readonly #log: DeliveryLog;
  #nextShipmentId = FIRST_FIXTURE_SHIPMENT_ID;
  /** Deliveries sent so far, for spreading duplicates evenly. */
  #sends = 0;
  #closed = false;
  /** Bumped by clear() (reset): an event held across it belongs to a state that no longer exists. */
  #generation = 0;
  readonly #waits = new Set<() => void>();
  readonly #deps: DelivererDeps;

  /** A deliverer over `deps` (its connection pool trusts `deps.extraCa`). */
  constructor(deps: DelivererDeps) {
    this.#deps = deps;
    this.#agent = deliveryAgent(deps.extraCa);
    this.#log = new DeliveryLog(deps.logBytes);
  }

  /**
   * Notify the shop's subscriber about `event`; resolves once every delivery is accepted or given up. The
   * deliveries are held `event.delayMs` first, and go out in `event.order` (deliveryOrder.ts). The URL
   * is looked up before the hold, so an event still held when the deliverer is cleared (reset) or closed
   * sends nothing and resolves NotDelivered: its subscription may be gone and its log was emptied.
   */
  async emit(event: SimEvent): Promise<Sent | NotDelivered> {
    const shop = event.shop ?? this.#deps.firstShop;
    const hook: Hook = event.kind;
    if (!this.#deps.store.hasShop(shop)) return { delivered: false, reason: `unknown shop "${shop}"` };
    const never = neverNotifies(event);
    if (never !== undefined) return { delivered: false, reason: never };
    const url = this.#deps.store.forHook(shop, hook)?.url;
    if (url === undefined) {
      return { delivered: false, reason: `shop "${shop}" has no subscription for hook "${hook}"` };
    }
    const switches = this.#deps.switches();
    const payloads = eventPayloads(event, {
      shopNumber: this.#deps.store.shopNumber(shop),
      eventField: switches.eventField,
      takeShipmentIds: (n) => {
        this.#nextShipmentId += n;
        return this.#nextShipmentId - n;
      },
    });
    const targets = chunked(payloads, switches.eventsPerDelivery).map(
      (hooks): Target => ({
        id: randomUUID(),
        shop,
        hook,
        url,
        bodyText: bodyText(hooks),
        events: hooks.length,
        ...(event.senderKey === undefined
          ? {}
          : { senderToken: Buffer.from(event.senderKey).toString("base64") }),
      }),
    );
    const total = targets.reduce((sum, t) => sum + t.bodyText.length, 0);
    if (total > MAX_EMIT_BODY_BYTES) {
      throw new InvalidInputError(
        `invalid event: its deliveries would hold ${total} bytes, more than ${MAX_EMIT_BODY_BYTES}; send a smaller count or smaller set values`,
      );
    }
    const attempts: LoggedDelivery[] = [];
    const deliveryIds: string[] = [];
    let accepted = true;
    if (event.delayMs !== undefined && event.delayMs > 0) {
      const generation = this.#generation;
      await this.#wait(event.delayMs);
      if (this.#closed) return { delivered: false, reason: "simulator closed while held" };
      if (this.#generation !== generation) return { delivered: false, reason: "reset while held" };
    }
    const order = deliveryOrder(targets.length, event.order ?? "in-order", event.orderSeed);
    for (const target of order.map((i) => targets[i] as Target)) {
      deliveryIds.push(target.id);
      accepted = (await this.#sendWithRetries(target, "event", attempts)) && accepted;
      if (!this.#duplicateDue()) continue;
      const id = this.#deps.switches().duplicateDeliveryId === "same" ? target.id : randomUUID();
      deliveryIds.push(id);
      accepted = (await this.#sendWithRetries({ ...target, id }, "duplicate", attempts)) && accepted;
    }
    return { delivered: true, accepted, deliveryIds, attempts };
  }

  /** Send logged delivery `id` again: same id, body and URL; new attempts as the switches say. */
  async resend(id: string): Promise<Sent | NotDelivered> {
    const logged = this.#log.find(id);
    if (logged === undefined) {
      return {
        delivered: false,
        reason: `delivery ${id} is not in the delivery log (it keeps the newest records, up to deliveryLogBytes)`,
      };
    }
    const { shop, hook, url, events } = logged.record;
    const attempts: LoggedDelivery[] = [];
    const target: Target = { id, shop, hook, url, bodyText: logged.bodyText, events };
    const accepted = await this.#sendWithRetries(target, "resend", attempts);
    return { delivered: true, accepted, deliveryIds: [id], attempts };
  }

  /** Whether the delivery about to be counted gets a duplicate: `deliveryDuplicates` of them, spread evenly. */
  #duplicateDue(): boolean {
    const rate = this.#deps.switches().deliveryDuplicates;
    const n = this.#sends++;
    return Math.ceil((n + 1) * rate - 1e-9) > Math.ceil(n * rate - 1e-9);
  }

  /** Attempt `target` until accepted or out of attempts; appends each record to `into`; true if accepted. */
  async #sendWithRetries(target: Target, send: DeliverySend, into: LoggedDelivery[]): Promise<boolean> {
    const maxAttempts = this.#deps.switches().deliveryAttempts;
    for (let attempt = 1; attempt <= maxAttempts && !this.#closed; attempt++) {
      const switches = this.#deps.switches();
      const headers: Record<string, string> = {
        "content-type": "application/json; charset=utf-8",
        "content-length": String(Buffer.byteLength(target.bodyText)),
        "user-agent": DELIVERY_USER_AGENT,
        [HOOK_HEADER]: target.hook,
        [DELIVERY_ID_HEADER]: target.id,
      };
      const token = target.senderToken ?? this.#deps.apiKeyToken(target.shop);
      if (token !== undefined) headers[API_KEY_HEADER] = token;
      const at = new Date().toISOString();
      const outcome = await postOnce(
        this.#agent,
        target.url,
        headers,
        target.bodyText,
        switches.deliveryTimeoutMs,
      );
      const result = attemptResult(outcome, switches.deliveryFailure);
      const again = result !== "accepted" && attempt < maxAttempts;
      const record: Omit<Delivery, "body"> = {
        id: target.id,
        shop: target.shop,
        hook: target.hook,
        url: target.url,
        events: target.events,
        send,
        attempt,
        maxAttempts,
        at,
        durationMs: outcome.durationMs,
        headers: token === undefined ? headers : { ...headers, [API_KEY_HEADER]: "[REDACTED]" },
        result,
        ...(outcome.status === undefined ? {} : { status: outcome.status }),
        ...(outcome.error === undefined ? {} : { error: outcome.error }),
        ...(outcome.response === undefined ? {} : { response: this.#deps.scrub(outcome.response) }),
        ...(again ? { retryInMs: backoffMs(switches.deliveryBackoffMs, attempt) } : {}),
      };
      const logged = { record, bodyText: target.bodyText };
      this.#log.add(logged);
      into.push(logged);
      if (this.#deps.onAttempt !== undefined) this.#tell(asDelivery(logged));
      if (result === "accepted") return true;
      if (record.retryInMs !== undefined) await this.#wait(record.retryInMs);
    }
    return false;
  }

  #tell(attempt: Delivery): void {
    try {
      this.#deps.onAttempt?.(attempt);
    } catch {
      // An observer that throws does not change the delivery.
    }
  }

  /** Wait `ms`, or less when the deliverer closes. */
  #wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#waits.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waits.add(done);
    });
  }

  /** Copies of the delivery records, oldest first. */
  list(): Delivery[] {
    return this.#log.list();
  }

  /** The delivery log as chunks of one JSON array, from the live log. */
  listingChunks(): Iterable<string> {
    return this.#log.chunks();
  }

  /** Forget every record; events held now deliver nothing when their hold ends. */
  clear(): void {
    this.#generation += 1;
    this.#log.clear();
  }

  /** Stop: no further attempts, retries waiting are abandoned, connections closed. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const done of [...this.#waits]) done();
    await this.#agent.destroy();
  }
}

/** The body of a delivery as JSON text; refuses one over MAX_DELIVERY_BODY_BYTES (naming the fix). */
function bodyText(hooks: Array<Record<string, unknown>>): string {
  const text = stringifyJson({ data: { hooks } }, (t) => t, MAX_DELIVERY_BODY_BYTES);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_DELIVERY_BODY_BYTES) {
    throw new InvalidInputError(
      `invalid event: a delivery body would exceed ${MAX_DELIVERY_BODY_BYTES} bytes; send fewer shipmentIds, a smaller count or eventsPerDelivery, or smaller set values`,
    );
  }
  return text;
}
