/**
 * A preview lists each shop once: the program's listing is handed to the provider (previewListing.ts), whose
 * `check` takes it as its own. These run the provider as a new provider process would (a fresh deployment)
 * against the simulator, and show that a handed listing decides exactly what the provider's own listing
 * would, with one GET fewer, and that a listing of another shop, or in another shape, is not taken.
 */
import { describe, expect, it } from "vitest";
import { Clients } from "../../provider/config/clients";
import { configuredTargets, resolveShop } from "../../provider/config/settings";
import { handedListing, listingToHand, PREVIEW_LISTING_INPUT } from "../../provider/inputs/previewListing";
import { isListedUrl, urlDigest } from "../../provider/rules/recorded";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { freshProvider } from "../support/provider";
import { ACME_KEY, GLOBEX_KEY } from "../support/shops";

const ORDERS = { hook: "order_status_change", url: "https://hooks.example.com/orders" };

const acme = useAcmeSimulator();

const configOf = (apiKey: string): Record<string, string> => ({
  "shipping:baseUrl": acme.sim.baseUrl,
  "shipping:apiKey": apiKey,
});

/** What a preview's program hands over for the default shop under `config`: it lists the shop, as the program does. */
async function programListing(config: Record<string, string>) {
  const source = (key: string) => config[key];
  const target = resolveShop(undefined, source, {});
  const listing = await new Clients(() => configuredTargets(source, {})).for(target).list();
  return listingToHand(target.shopKey, listing);
}

/** Deploys ORDERS in acme and returns its id and recorded outputs (what diff gets as olds). */
async function deployed() {
  const runtime = await freshProvider(configOf(ACME_KEY));
  expect((await runtime.check({}, ORDERS)).failures).toEqual([]);
  const { id, outs } = await runtime.create(ORDERS);
  return { id, olds: { ...ORDERS, ...outs } };
}

/** check then diff, as the engine calls them in a preview, in a new provider process; with the requests made. */
async function previewOf(config: Record<string, string>, handed: unknown, id: string, olds: object) {
  const runtime = await freshProvider(config);
  acme.sim.clearRequests();
  const news = handed === undefined ? ORDERS : { ...ORDERS, [PREVIEW_LISTING_INPUT]: handed };
  const checked = await runtime.check(olds as Record<string, unknown>, news);
  const diff = await runtime.diff(id, olds as Record<string, unknown>, checked.inputs).then(
    (decision) => decision,
    (error: unknown) => new Error(String(error)),
  );
  return { checked, diff, requests: acme.sim.requests().map((r) => `${r.method} ${r.path}`) };
}

describe("a preview's listing, handed from the program to the provider", () => {
  it("decides an unchanged resource with no request of the provider's own, and is not kept among the inputs", async () => {
    const { id, olds } = await deployed();
    const handed = await programListing(configOf(ACME_KEY));
    const own = await previewOf(configOf(ACME_KEY), undefined, id, olds);
    const given = await previewOf(configOf(ACME_KEY), handed, id, olds);
    expect(own.requests).toEqual(["GET /webhook_subscriptions/"]);
    expect(given.requests).toEqual([]);
    expect(given.diff).toEqual(own.diff);
    expect(given.diff).toMatchObject({ changes: false });
    expect(Object.keys(given.checked.inputs)).not.toContain(PREVIEW_LISTING_INPUT);
  });

  it("refuses a key that now reaches another shop, as the provider's own listing does, with no request", async () => {
    const { id, olds } = await deployed();
    const globex = await freshProvider(configOf(GLOBEX_KEY));
    await globex.create({ ...ORDERS, url: "https://hooks.example.com/globex" });
    const handed = await programListing(configOf(GLOBEX_KEY));
    const own = await previewOf(configOf(GLOBEX_KEY), undefined, id, olds);
    const given = await previewOf(configOf(GLOBEX_KEY), handed, id, olds);
    expect(own.diff).toBeInstanceOf(Error);
    expect(String(own.diff)).toMatch(/now reaches/);
    expect(given.diff).toEqual(own.diff);
    expect(given.requests).toEqual([]);
  });

  it("is not taken for another shop's: a listing made with another key leaves the provider to list its own", async () => {
    const { id, olds } = await deployed();
    const globex = await programListing(configOf(GLOBEX_KEY));
    const given = await previewOf(configOf(ACME_KEY), globex, id, olds);
    expect(given.requests).toEqual(["GET /webhook_subscriptions/"]);
    expect(given.diff).toMatchObject({ changes: false });
  });
});

describe("a shop the program could not list", () => {
  it("fails the resource's check with the program's message, and the provider asks nothing", async () => {
    const runtime = await freshProvider(configOf(ACME_KEY));
    const target = resolveShop(undefined, (key) => configOf(ACME_KEY)[key], {});
    acme.sim.clearRequests();
    const message = 'WebhookSubscription "orders": the default shop: the service refuses the key (401)';
    const news = { ...ORDERS, [PREVIEW_LISTING_INPUT]: { shopKey: target.shopKey, unusable: message } };
    await expect(runtime.check({}, news)).rejects.toThrow(message);
    expect(acme.sim.requests()).toEqual([]);
  });
});

describe("handedListing: what the provider takes from the hidden input", () => {
  const config: Record<string, string> = {
    "shipping:baseUrl": "http://127.0.0.1:4010",
    "shipping:apiKey": ACME_KEY,
  };
  const target = resolveShop(undefined, (key) => config[key], {});
  const sub = { id: 7, hook: "order_status_change", url: "https://a.example.com/x" };
  const rows: [string, unknown, unknown][] = [
    ["the listing of this shop", { shopKey: target.shopKey, listing: [sub] }, { listing: [sub] }],
    ["an empty listing of this shop", { shopKey: target.shopKey, listing: [] }, { listing: [] }],
    [
      "shop and account as the service reported them",
      { shopKey: target.shopKey, listing: [{ ...sub, shopId: "1", accountId: "9" }] },
      { listing: [{ ...sub, shopId: "1", accountId: "9" }] },
    ],
    [
      "why this shop could not be listed",
      { shopKey: target.shopKey, unusable: "refused" },
      { unusable: "refused" },
    ],
    ["why another shop could not be listed", { shopKey: "other", unusable: "refused" }, undefined],
    ["an empty reason", { shopKey: target.shopKey, unusable: "" }, undefined],
    ["another shop's listing", { shopKey: `${target.shopKey}x`, listing: [sub] }, undefined],
    ["nothing handed over", undefined, undefined],
    ["a listing without its shop", { listing: [sub] }, undefined],
    ["an id that is not a number", { shopKey: target.shopKey, listing: [{ ...sub, id: "7" }] }, undefined],
    ["a subscription without a URL", { shopKey: target.shopKey, listing: [{ id: 7, hook: "h" }] }, undefined],
    ["not a list", { shopKey: target.shopKey, listing: "[]" }, undefined],
  ];
  it.each(rows)("%s", (_case, value, expected) => {
    expect(handedListing(value, target)).toEqual(expected);
  });
});

describe("isListedUrl: a handed listing's URL digest stands for that URL only", () => {
  const url = "https://hooks.example.com/orders?token=abc";
  const rows: [string, string, string, boolean][] = [
    ["a URL as the service lists it", url, url, true],
    ["another URL as listed", "https://hooks.example.com/other", url, false],
    ["the digest of the URL", urlDigest(url), url, true],
    ["the digest of another URL", urlDigest("https://hooks.example.com/other"), url, false],
    ["a digest compared with itself as a URL", urlDigest(url), urlDigest(url), false],
  ];
  it.each(rows)("%s", (_case, listed, recorded, same) => {
    expect(isListedUrl(listed, recorded)).toBe(same);
  });

  it("a handed listing holds no URL, only digests", () => {
    const handed = listingToHand("k", [{ id: 1, hook: "order_status_change", url }]);
    expect(JSON.stringify(handed)).not.toContain("hooks.example.com");
  });
});
