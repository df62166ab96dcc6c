/**
 * "A delete never unsubscribes a hook that another resource of the deployment declares for the same shop": the
 * facts a delete of a resource the program no longer declares hands the rule, row by row (how the program
 * declares the recorded hook, shop by shop: provider/facts/declarations.ts `declaredIn`), in the deleting
 * provider process and in another process of the same deployment (the plugin's explicit provider, or the
 * dynamic host beside the plugin). The ownership table (test/ownership/ownership.writes.test.ts) states which
 * of them keep the hook; takeover.cli.test.ts and takeover.plugin.test.ts show both through the official CLI
 * under `up --continue-on-error`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ShopTarget } from "../../provider/config/settings";
import { Declarations } from "../../provider/facts/declarations";
import { SharedDeclarations } from "../../provider/facts/deploymentDeclarations";
import { keepsHook } from "../../provider/rules/ownership";
import type { Declared } from "../../provider/rules/ownershipFacts";
import { namedShopsOf } from "../../provider/rules/recorded";
import { LABELS, ORDERS } from "../support/services";

const API = "https://api.example.com";
const ACME: ShopTarget = {
  api: API,
  shopKey: `${API}#k1`,
  label: "acme",
  baseUrl: API,
  apiKey: "k1",
  authScheme: "basic",
};
/** A second key of the same shop, configured only in the other process (an explicit provider's own key). */
const ACME_SECOND: ShopTarget = { ...ACME, shopKey: `${API}#k2`, label: "(explicit)", apiKey: "k2" };
const RECORDED = {
  hook: ORDERS,
  url: "https://hooks.example.com/o",
  api: API,
  identities: [{ shopId: "1" }],
};
const OTHER_URL = "https://hooks.example.com/o2";

/** Where an event happened: the provider process that deletes, or another process of the deployment. */
type Process = "deleting" | "other";
/**
 * What happened in the deployment before the delete, in a process, through credentials (`as`, else ACME's):
 * a check the engine made (`inShop`: the shop the service named at check, when it listed the shop), or a create
 * that failed (`inShop`: the shop its listing told, when it told one, or "empty" when it listed nothing).
 */
type Event = { readonly in: Process; readonly as?: ShopTarget; readonly inShop?: string } & (
  | { readonly checked: { readonly hook: string; readonly url: string } }
  | { readonly createFailed: string }
  | { readonly kept: { readonly hook: string; readonly url: string } }
);

const declared = (atRecordedUrl: boolean, createFailed = false): Declared[] => [
  { shopKey: ACME.shopKey, atRecordedUrl, createFailed },
];

const ROWS: ReadonlyArray<readonly [string, readonly Event[], Declared[]]> = [
  ["nothing declares the hook", [{ in: "deleting", checked: { hook: LABELS, url: RECORDED.url } }], []],
  [
    "another resource declares it at another URL (renamed without an alias, URL changed)",
    [{ in: "deleting", checked: { hook: ORDERS, url: OTHER_URL } }],
    declared(false),
  ],
  [
    "a resource declares it at the recorded URL (the recorded resource's own, replaced by up --replace)",
    [{ in: "deleting", checked: { hook: ORDERS, url: RECORDED.url } }],
    declared(true),
  ],
  [
    "a resource declares it at the recorded URL and its create failed (renamed without an alias, URL kept)",
    [
      { in: "deleting", checked: { hook: ORDERS, url: RECORDED.url } },
      { in: "deleting", createFailed: ORDERS },
    ],
    declared(true, true),
  ],
  [
    "a create of another hook failed",
    [
      { in: "deleting", checked: { hook: ORDERS, url: RECORDED.url } },
      { in: "deleting", createFailed: LABELS },
    ],
    declared(true),
  ],
  [
    "another process declares it at another URL (moved to an explicit provider, URL changed)",
    [{ in: "other", checked: { hook: ORDERS, url: OTHER_URL } }],
    declared(false),
  ],
  [
    "another process declares it at the recorded URL and its create failed there",
    [
      { in: "other", checked: { hook: ORDERS, url: RECORDED.url } },
      { in: "other", createFailed: ORDERS },
    ],
    declared(true, true),
  ],
  [
    "another process declares another hook, whose create failed",
    [
      { in: "other", checked: { hook: LABELS, url: RECORDED.url } },
      { in: "other", createFailed: LABELS },
    ],
    [],
  ],
  [
    "another process, through a key configured only there, declares it in the recorded shop at another URL",
    [{ in: "other", as: ACME_SECOND, inShop: "1", checked: { hook: ORDERS, url: OTHER_URL } }],
    [{ inRecordedShop: true, atRecordedUrl: false, createFailed: false }],
  ],
  [
    "... and its create failed there",
    [
      { in: "other", as: ACME_SECOND, inShop: "1", checked: { hook: ORDERS, url: RECORDED.url } },
      { in: "other", as: ACME_SECOND, inShop: "1", createFailed: ORDERS },
    ],
    [{ inRecordedShop: true, atRecordedUrl: true, createFailed: true }],
  ],
  [
    "... in another shop than the recorded one, and its create failed there",
    [
      { in: "other", as: ACME_SECOND, inShop: "2", checked: { hook: ORDERS, url: OTHER_URL } },
      { in: "other", as: ACME_SECOND, inShop: "2", createFailed: ORDERS },
    ],
    [],
  ],
  [
    "... its listings failed (no shop named), and its create failed",
    [
      { in: "other", as: ACME_SECOND, checked: { hook: ORDERS, url: OTHER_URL } },
      { in: "other", as: ACME_SECOND, createFailed: ORDERS },
    ],
    [{ atRecordedUrl: false, createFailed: true }],
  ],
  [
    "... its shop listed nothing (a new shop, not the recorded one), and its create failed",
    [
      { in: "other", as: ACME_SECOND, inShop: "empty", checked: { hook: ORDERS, url: OTHER_URL } },
      { in: "other", as: ACME_SECOND, inShop: "empty", createFailed: ORDERS },
    ],
    [],
  ],
  [
    "another process, through a key configured only there, keeps a resource unchanged in the recorded shop at another URL (its record may be stale)",
    [{ in: "other", as: ACME_SECOND, inShop: "1", kept: { hook: ORDERS, url: OTHER_URL } }],
    [{ inRecordedShop: true, atRecordedUrl: false, createFailed: false, keptUnchanged: true }],
  ],
  [
    "... kept unchanged in the recorded shop at the recorded URL (its record may name an id another key overwrote)",
    [{ in: "other", as: ACME_SECOND, inShop: "1", kept: { hook: ORDERS, url: RECORDED.url } }],
    [{ inRecordedShop: true, atRecordedUrl: true, createFailed: false, keptUnchanged: true }],
  ],
  [
    "... kept unchanged in another shop than the recorded one",
    [{ in: "other", as: ACME_SECOND, inShop: "2", kept: { hook: ORDERS, url: OTHER_URL } }],
    [],
  ],
  [
    "the deleting process's own key, its listings failed, and its create failed: placed by its key",
    [
      { in: "other", checked: { hook: ORDERS, url: OTHER_URL } },
      { in: "other", createFailed: ORDERS },
    ],
    declared(false, true),
  ],
];

const folder = mkdtempSync(join(tmpdir(), "declared-elsewhere-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("delete: how does the deployment declare the recorded hook?", () => {
  it.each(ROWS)("%s", (name, events, expected) => {
    const file = join(folder, `${ROWS.findIndex((row) => row[0] === name)}.declarations`);
    const processes = { deleting: new Declarations(), other: new Declarations() };
    processes.deleting.share(new SharedDeclarations(file, "deployment key"));
    processes.other.share(new SharedDeclarations(file, "deployment key"));
    for (const event of events) {
      const process = processes[event.in];
      const target = event.as ?? ACME;
      const shop =
        event.inShop === undefined || event.inShop === "empty" ? undefined : { shopId: event.inShop };
      if ("kept" in event) {
        process.declare(target, event.kept.hook, event.kept.url);
        if (shop !== undefined) process.placeKeptInSharedShop(target, shop, event.kept.hook, event.kept.url);
      } else if ("checked" in event) {
        process.declare(target, event.checked.hook, event.checked.url);
        if (shop !== undefined)
          process.declareInSharedShop(target, shop, event.checked.hook, event.checked.url);
      } else process.createFailed(target, event.createFailed, event.inShop === "empty" ? "empty" : shop);
    }
    expect(processes.deleting.declaredIn(RECORDED.hook, RECORDED.url, [ACME], RECORDED)).toEqual(expected);
  });

  it("without a file of the deployment, another process's declarations are not seen (each decides alone)", () => {
    const deleting = new Declarations();
    new Declarations().declare(ACME, ORDERS, OTHER_URL);
    expect(deleting.declaredIn(RECORDED.hook, RECORDED.url, [ACME], RECORDED)).toEqual([]);
  });

  it("the file holds no URL and no key", async () => {
    const file = join(folder, "secrets.declarations");
    const declarations = new Declarations();
    declarations.share(new SharedDeclarations(file, "deployment key"));
    declarations.declare(ACME, ORDERS, OTHER_URL);
    declarations.declareInSharedShop(ACME, { shopId: "1" }, ORDERS, OTHER_URL);
    declarations.createFailed(ACME, ORDERS, { shopId: "1" });
    declarations.createFailed(ACME_SECOND, ORDERS);
    const text = (await import("node:fs")).readFileSync(file, "utf8");
    expect(text).toContain(ORDERS);
    for (const secret of [OTHER_URL, "hooks.example.com", ACME.apiKey, ACME.shopKey, API])
      expect(text).not.toContain(secret);
  });

  it("the rule keeps the hook for the rows of a rename, not for up --replace; for a resource kept unchanged, at any URL", () => {
    expect(declared(false).map(keepsHook)).toEqual([true]);
    expect(declared(true).map(keepsHook)).toEqual([false]);
    expect(declared(true, true).map(keepsHook)).toEqual([true]);
    const kept = (atRecordedUrl: boolean): Declared => ({
      inRecordedShop: true,
      atRecordedUrl,
      createFailed: false,
      keptUnchanged: true,
    });
    expect([kept(false), kept(true)].map(keepsHook)).toEqual([true, true]);
  });
});

/** Recorded subscription 7 of ORDERS in ACME's shop, as state of a release holds it. */
const recordedAs = (shop: { shopId?: string; accountId?: string }) => ({
  id: 7,
  hook: ORDERS,
  url: RECORDED.url,
  shop: undefined,
  api: shop.shopId === undefined ? undefined : API,
  shopId: shop.shopId,
  accountId: shop.accountId,
});
const LISTED = (shop: { shopId: string; accountId?: string }) => [
  { id: 7, hook: ORDERS, url: RECORDED.url, ...shop },
];

describe("delete: the shops the service named for the recorded subscription, where another process placed the hook", () => {
  it.each([
    ["state names shop 1; not listed yet", recordedAs({ shopId: "1" }), undefined, [{ shopId: "1" }]],
    [
      "state of 0.1 names no shop; the listing names shop 1",
      recordedAs({}),
      LISTED({ shopId: "1" }),
      [{ shopId: "1" }],
    ],
    [
      "state names shop 1 without the account the listing names now",
      recordedAs({ shopId: "1" }),
      LISTED({ shopId: "1", accountId: "a" }),
      [{ shopId: "1" }, { shopId: "1", accountId: "a" }],
    ],
  ])("%s", (_name, recorded, listing, shops) => {
    expect(namedShopsOf(recorded, listing)).toEqual(shops);
    // Another process, through a second key configured only there, declared the hook in the shop the service
    // named for it (its own listing says the account) at another URL, and its create failed: the hook is kept.
    const file = join(folder, `named-${_name.length}.declarations`);
    const [deleting, other] = [new Declarations(), new Declarations()];
    deleting.share(new SharedDeclarations(file, "deployment key"));
    other.share(new SharedDeclarations(file, "deployment key"));
    const named = shops.at(-1) ?? { shopId: "1" };
    other.declare(ACME_SECOND, ORDERS, OTHER_URL);
    other.declareInSharedShop(ACME_SECOND, named, ORDERS, OTHER_URL);
    other.createFailed(ACME_SECOND, ORDERS, named);
    const declaredIn = deleting.declaredIn(ORDERS, RECORDED.url, [ACME], { api: API, identities: shops });
    expect(declaredIn).toEqual([{ inRecordedShop: true, atRecordedUrl: false, createFailed: true }]);
    expect(declaredIn.map(keepsHook)).toEqual([true]);
  });
});
