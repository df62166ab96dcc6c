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
import { declaringShops } from "../../provider/rules/ownership";
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
const RECORDED = { hook: ORDERS, url: "https://hooks.example.com/o" };
const OTHER_URL = "https://hooks.example.com/o2";

/** Where an event happened: the provider process that deletes, or another process of the deployment. */
type Process = "deleting" | "other";
/** What happened in the deployment before the delete: a check the engine made, or a create that failed. */
type Event =
  | { readonly in: Process; readonly checked: { readonly hook: string; readonly url: string } }
  | { readonly in: Process; readonly createFailed: string };

const declared = (atRecordedUrl: boolean, createFailed = false) => [
  { shopKey: ACME.shopKey, atRecordedUrl, createFailed },
];

const ROWS: ReadonlyArray<readonly [string, readonly Event[], ReturnType<typeof declared> | []]> = [
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
      if ("checked" in event) process.declare(ACME, event.checked.hook, event.checked.url);
      else process.createFailed(ACME, event.createFailed);
    }
    expect(processes.deleting.declaredIn(RECORDED.hook, RECORDED.url, [ACME])).toEqual(expected);
  });

  it("without a file of the deployment, another process's declarations are not seen (each decides alone)", () => {
    const deleting = new Declarations();
    new Declarations().declare(ACME, ORDERS, OTHER_URL);
    expect(deleting.declaredIn(RECORDED.hook, RECORDED.url, [ACME])).toEqual([]);
  });

  it("the file holds no URL and no key", async () => {
    const file = join(folder, "secrets.declarations");
    const declarations = new Declarations();
    declarations.share(new SharedDeclarations(file, "deployment key"));
    declarations.declare(ACME, ORDERS, OTHER_URL);
    declarations.createFailed(ACME, ORDERS);
    const text = (await import("node:fs")).readFileSync(file, "utf8");
    expect(text).toContain(ORDERS);
    for (const secret of [OTHER_URL, "hooks.example.com", ACME.apiKey, ACME.shopKey, API])
      expect(text).not.toContain(secret);
  });

  it("the rule keeps the hook for the rows of a rename, not for up --replace", () => {
    expect(declaringShops(declared(false))).toEqual([ACME.shopKey]);
    expect(declaringShops(declared(true))).toEqual([]);
    expect(declaringShops(declared(true, true))).toEqual([ACME.shopKey]);
  });
});
