/**
 * The delivery log: one record per attempt, oldest first, bounded in entries and in bytes (issue 29,
 * defect 3). Bodies are kept as the JSON text that was sent (never as a parsed tree), and the listing is
 * streamed from the live log.
 */
import { BoundedQueue } from "./boundedQueue";
import { DELIVERY_LOG_LIMIT, DELIVERY_RECORD_OVERHEAD_BYTES } from "./constants";
import type { AttemptSummary, Delivery, Emitted, EmittedSummary, NotDelivered } from "./deliveryTypes";

/** A record without its body, and the body as sent. */
export interface LoggedDelivery {
  record: Omit<Delivery, "body">;
  bodyText: string;
}

/** An upper bound of the memory a record holds: its strings at two bytes per character, plus overhead. */
function cost(fields: string, bodyText: string): number {
  return DELIVERY_RECORD_OVERHEAD_BYTES + 2 * (fields.length + bodyText.length);
}

function render({ record, bodyText }: LoggedDelivery): string {
  return `${JSON.stringify(record).slice(0, -1)},"body":${bodyText}}`;
}

/** A record as the public `Delivery` (its body parsed anew). */
export function asDelivery({ record, bodyText }: LoggedDelivery): Delivery {
  return { ...record, headers: { ...record.headers }, body: JSON.parse(bodyText) };
}

/** What a send made: the attempts as logged (their bodies as the text sent, shared, never parsed). */
export interface Sent {
  delivered: true;
  accepted: boolean;
  deliveryIds: string[];
  attempts: LoggedDelivery[];
}

/** A send as `emit` and `resend` answer it in the library: each attempt with its parsed body. */
export function asEmitted(sent: Sent | NotDelivered): Emitted | NotDelivered {
  return sent.delivered ? { ...sent, attempts: sent.attempts.map(asDelivery) } : sent;
}

/** A send as the control endpoints answer it: each attempt without body and headers. */
export function asSummary(sent: Sent | NotDelivered): EmittedSummary | NotDelivered {
  if (!sent.delivered) return sent;
  const attempts = sent.attempts.map(({ record }): AttemptSummary => {
    const { headers: _headers, ...rest } = record;
    return rest;
  });
  return { ...sent, attempts };
}

/** Records oldest first, at most DELIVERY_LOG_LIMIT of them and at most `maxBytes` charged bytes. */
export class DeliveryLog {
  readonly #queue: BoundedQueue<LoggedDelivery>;

  /** Keep at most `maxBytes` charged bytes of records (oldest dropped first). */
  constructor(maxBytes: number) {
    this.#queue = new BoundedQueue(DELIVERY_LOG_LIMIT, maxBytes);
  }

  /** Record one attempt. */
  add(logged: LoggedDelivery): void {
    this.#queue.push(logged, cost(JSON.stringify(logged.record), logged.bodyText));
  }

  /** The newest record of delivery `id`, if the log still holds one. */
  find(id: string): LoggedDelivery | undefined {
    const items = this.#queue.items();
    for (let i = items.length - 1; i >= 0; i--) {
      if (items[i]?.record.id === id) return items[i];
    }
    return undefined;
  }

  /** Copies of the records, oldest first. */
  list(): Delivery[] {
    return this.#queue.items().map(asDelivery);
  }

  /** The log as a JSON array in chunks, from the live log (see BoundedQueue.chunks). */
  chunks(): Iterable<string> {
    return this.#queue.chunks(render);
  }

  /** Number of records and their charged bytes. */
  size(): { entries: number; bytes: number } {
    return this.#queue.size();
  }

  /** Forget every record. */
  clear(): void {
    this.#queue.clear();
  }
}
