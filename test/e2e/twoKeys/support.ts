/** Shared helpers of the review 13b reproductions: the engine scenario helpers, and what state records. */
import { engine, subscriptionResources } from "../support/engine";
import type { scenario } from "../support/scenario";

export { scenario, simulator } from "../support/scenario";

/** What state records per subscription resource: name, id, hook, url (secrets unwrapped). */
export async function recorded(stack: Awaited<ReturnType<typeof scenario>>["stack"]) {
  return subscriptionResources(await stack.exportStack()).map((r) => {
    const url = r.outputs.url as string | { plaintext: string };
    return {
      name: r.urn.split("::").pop(),
      id: Number(r.id),
      hook: r.outputs.hook,
      url: typeof url === "string" ? url : JSON.parse(url.plaintext),
      shopId: r.outputs.shopId,
    };
  });
}

/** Runs an engine operation; answers "succeeded" or the error's first 600 characters. */
export async function outcome(operation: Promise<unknown>, what: string): Promise<string> {
  return engine(operation, what).then(
    () => "succeeded",
    (error: unknown) => `failed: ${String(error).slice(0, 600)}`,
  );
}

export const ORDERS = "order_status_change";
export const SHIPMENTS = "shipment_status_change";
