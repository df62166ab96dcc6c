import { Batcher, type BatcherOptions, MAX_ITEMS_PER_REQUEST } from "./batcher";

/** Most ids joined into one request (`/webhook_subscriptions/1;2;3`); the API's own limit is not shown. */
export const MAX_IDS_PER_REQUEST = MAX_ITEMS_PER_REQUEST;

/**
 * A {@link Batcher} of subscription ids: the ids of one shop that arrive together go out as one request
 * (each id once), and each caller gets the result for its id (undefined when the request had none for it).
 */
export class IdBatcher<G, R> {
  readonly #batcher: Batcher<G, number, R | undefined>;

  constructor(
    keyOf: (group: G) => string,
    run: (group: G, ids: number[]) => Promise<Map<number, R>>,
    options: Pick<BatcherOptions<G, number>, "windowMs" | "whileInFlight" | "traceAs"> = {},
  ) {
    this.#batcher = new Batcher<G, number, R | undefined>(
      keyOf,
      async (group, ids) => {
        const found = await run(group, [...new Set(ids)]);
        return ids.map((id) => ({ value: found.get(id) }));
      },
      { ...options, maxSize: MAX_IDS_PER_REQUEST, sizeOf: (ids) => new Set(ids).size },
    );
  }

  /** Resolves with the result for `id` (undefined when the batch had none for it). */
  load(group: G, id: number): Promise<R | undefined> {
    return this.#batcher.add(group, id);
  }
}
