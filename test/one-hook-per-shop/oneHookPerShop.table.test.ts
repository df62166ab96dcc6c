/**
 * "A shop has one subscription per hook", row by row: what check answers for a declaration, given the
 * declarations the engine checked before it in the deployment (provider/facts/declarations.ts, one function
 * for the question), and what a create answers for two keys of one shop. The program's own check and a batch's
 * duplicate ask the same {@link HookDeclarers}; their integration and CLI tests are beside this file:
 * test/one-hook-per-shop/oneHookPerShop.test.ts and ignoreChanges.cli.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { ShopTarget } from "../../provider/config/settings";
import { Declarations } from "../../provider/facts/declarations";
import { UNKNOWN_VALUE } from "../../provider/inputs/lifecycle";
import {
  HookDeclarers,
  type SecondDeclaration,
  secondDeclarationRefusal,
} from "../../provider/rules/oneHookPerShop";
import { LABELS, ORDERS } from "../support/services";

const API = "https://api.example.com";
/** Another Shipping Service API (a staging one): its shop ids are its own. */
const OTHER_API = "https://staging.api.example.com";

/** A shop name under a key (at an API): two names with one key are one shop. */
function target(label: string, key: string, api = API): ShopTarget {
  return { api, shopKey: `${api}#${key}`, label, baseUrl: api, apiKey: key, authScheme: "basic" };
}

interface Checked {
  readonly shop: string;
  readonly key: string;
  readonly hook: string;
  readonly url?: string;
  readonly urn?: string;
}

const urn = (name: string) => `urn:pulumi:dev::p::shipping:index:WebhookSubscription::${name}`;
const A = urn("a");
const B = urn("b");

/** Earlier declarations, then the one asked about, and what check answers for it. */
const ROWS: ReadonlyArray<readonly [string, readonly Checked[], Checked, SecondDeclaration | undefined]> = [
  ["the first declaration", [], { shop: "acme", key: "k1", hook: ORDERS, url: "u1", urn: A }, undefined],
  [
    "the same resource checked again (a replacement's create)",
    [{ shop: "acme", key: "k1", hook: ORDERS, url: "u1", urn: A }],
    { shop: "acme", key: "k1", hook: ORDERS, url: "u1", urn: A },
    undefined,
  ],
  [
    "another hook of the same shop",
    [{ shop: "acme", key: "k1", hook: ORDERS, url: "u1", urn: A }],
    { shop: "acme", key: "k1", hook: LABELS, url: "u1", urn: B },
    undefined,
  ],
  [
    "the same hook of another shop",
    [{ shop: "acme", key: "k1", hook: ORDERS, url: "u1", urn: A }],
    { shop: "globex", key: "k2", hook: ORDERS, url: "u2", urn: B },
    undefined,
  ],
  [
    "another resource, the same shop name and hook",
    [{ shop: "acme", key: "k1", hook: ORDERS, url: "u1", urn: A }],
    { shop: "acme", key: "k1", hook: ORDERS, url: "u2", urn: B },
    { by: "resource", urn: A },
  ],
  [
    "another shop name with the same key (a host that does not say the URN)",
    [{ shop: "acme", key: "k1", hook: ORDERS, url: "u1" }],
    { shop: "alias", key: "k1", hook: ORDERS, url: "u2" },
    { by: "shopName", label: "acme" },
  ],
  [
    "the same shop name at another URL with no URN: one keeps its hook through ignoreChanges",
    [{ shop: "acme", key: "k1", hook: ORDERS, url: "u1" }],
    { shop: "acme", key: "k1", hook: ORDERS, url: "u2" },
    { by: "keptHook" },
  ],
  [
    "the same shop name at the same URL with no URN (the re-check of one resource)",
    [{ shop: "acme", key: "k1", hook: ORDERS, url: "u1" }],
    { shop: "acme", key: "k1", hook: ORDERS, url: "u1" },
    undefined,
  ],
  [
    "an unknown URL (preview) is never told apart from a known one",
    [{ shop: "acme", key: "k1", hook: ORDERS, url: "u1" }],
    { shop: "acme", key: "k1", hook: ORDERS, url: UNKNOWN_VALUE },
    undefined,
  ],
];

describe("check: is this declaration the second of its hook for its shop?", () => {
  it.each(ROWS)("%s", (_name, earlier, asked, expected) => {
    const declarations = new Declarations();
    for (const d of earlier) {
      expect(declarations.declare(target(d.shop, d.key), d.hook, d.url, d.urn)).toBeUndefined();
    }
    expect(declarations.declare(target(asked.shop, asked.key), asked.hook, asked.url, asked.urn)).toEqual(
      expected,
    );
  });

  it("each refusal names the hook, both declarations and the way out, and no URL", () => {
    const acme = target("acme", "k1");
    const said = (second: SecondDeclaration) => secondDeclarationRefusal(second, ORDERS, acme, B);
    expect(said({ by: "resource", urn: A })).toBe(
      `WebhookSubscription "b" declares hook ${ORDERS} for shop acme, which WebhookSubscription "a" already declares. A shop has one subscription per hook: remove one of the two`,
    );
    expect(said({ by: "shopName", label: "alias" })).toMatch(
      /declares it for shop alias, which is the same shop as acme .*remove one of the two declarations$/,
    );
    expect(said({ by: "keptHook" })).toMatch(
      /ignoreChanges.*drop "hook" from that resource's ignoreChanges$/,
    );
  });
});

describe("create: did another key write this hook into the same shop?", () => {
  it.each([
    ["the first create of the hook", [], "k1", false],
    ["another create with the same key (its own replacement)", ["k1"], "k1", false],
    ["a create with another key of the same shop", ["k1"], "k2", true],
  ] as const)("%s", (_name, earlierKeys, key, expected) => {
    const declarations = new Declarations();
    for (const k of earlierKeys) declarations.createIn(target("x", k), { shopId: "shop-1" }, ORDERS);
    expect(declarations.createIn(target("y", key), { shopId: "shop-1" }, ORDERS)).toBe(expected);
  });

  it("the same hook in another shop the service reports is no second", () => {
    const declarations = new Declarations();
    declarations.createIn(target("x", "k1"), { shopId: "shop-1" }, ORDERS);
    expect(declarations.createIn(target("y", "k2"), { shopId: "shop-2" }, ORDERS)).toBe(false);
  });

  it.each([
    [
      "another key at another API that reports the same shop_id: another shop, no second",
      "k2",
      OTHER_API,
      false,
    ],
    [
      "the same key at another API that reports the same shop_id: another shop, no second",
      "k1",
      OTHER_API,
      false,
    ],
    ["another key at the same API that reports the same shop_id: the same shop, a second", "k2", API, true],
  ] as const)("%s", (_name, key, api, expected) => {
    const declarations = new Declarations();
    declarations.createIn(target("x", "k1"), { shopId: "shop-1" }, ORDERS);
    expect(declarations.createIn(target("y", key, api), { shopId: "shop-1" }, ORDERS)).toBe(expected);
  });

  it.each([
    ["shop 1 of another account (shop ids are per account): another shop, no second", "acct-b", false],
    ["shop 1 of the same account: the same shop, a second", "acct-a", true],
  ] as const)("another key at the same API, %s", (_name, account, expected) => {
    const declarations = new Declarations();
    declarations.createIn(target("x", "k1"), { shopId: "shop-1", accountId: "acct-a" }, ORDERS);
    const second = { shopId: "shop-1", accountId: account };
    expect(declarations.createIn(target("y", "k2"), second, ORDERS)).toBe(expected);
  });
});

describe("HookDeclarers: the first declarer of a hook in a shop", () => {
  it("answers the first declarer to any other, and nothing to the first itself", () => {
    const declarers = new HookDeclarers();
    expect(declarers.otherThan("acme", ORDERS, "a")).toBeUndefined();
    expect(declarers.otherThan("acme", ORDERS, "a")).toBeUndefined();
    expect(declarers.otherThan("acme", ORDERS, "b")).toBe("a");
    expect(declarers.otherThan("acme", ORDERS, "c")).toBe("a");
    expect(declarers.otherThan("acme", LABELS, "b")).toBeUndefined();
    expect(declarers.otherThan("globex", ORDERS, "b")).toBeUndefined();
  });
});
