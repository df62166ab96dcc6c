/**
 * "A delete never unsubscribes a hook that another resource of the deployment declares for the same shop",
 * row by row: the shops where the program declares the recorded hook, as a delete of a resource the program
 * no longer declares asks them (provider/facts/declarations.ts `declaredIn`); the ownership table
 * (test/ownership/ownership.writes.test.ts) turns a shop named here into the refusal, and
 * takeover.cli.test.ts shows both through the official CLI under `up --continue-on-error`.
 */
import { describe, expect, it } from "vitest";
import type { ShopTarget } from "../../provider/config/settings";
import { Declarations } from "../../provider/facts/declarations";
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

/** What happened in the deployment before the delete: a check the engine made, or a create that failed. */
type Event =
  | { readonly checked: { readonly hook: string; readonly url: string } }
  | { readonly createFailed: string };

const ROWS: ReadonlyArray<readonly [string, readonly Event[], readonly string[]]> = [
  ["nothing declares the hook", [{ checked: { hook: LABELS, url: RECORDED.url } }], []],
  [
    "another resource declares it at another URL (renamed without an alias, URL changed)",
    [{ checked: { hook: ORDERS, url: "https://hooks.example.com/o2" } }],
    [ACME.shopKey],
  ],
  [
    "a resource declares it at the recorded URL (the recorded resource's own, replaced by up --replace)",
    [{ checked: { hook: ORDERS, url: RECORDED.url } }],
    [],
  ],
  [
    "a resource declares it at the recorded URL and its create failed (renamed without an alias, URL kept)",
    [{ checked: { hook: ORDERS, url: RECORDED.url } }, { createFailed: ORDERS }],
    [ACME.shopKey],
  ],
  [
    "a create of another hook failed",
    [{ checked: { hook: ORDERS, url: RECORDED.url } }, { createFailed: LABELS }],
    [],
  ],
];

describe("delete: where does another resource of the deployment declare the recorded hook?", () => {
  it.each(ROWS)("%s", (_name, events, expected) => {
    const declarations = new Declarations();
    for (const event of events) {
      if ("checked" in event) declarations.declare(ACME, event.checked.hook, event.checked.url);
      else declarations.createFailed(ACME, event.createFailed);
    }
    expect(declarations.declaredIn(RECORDED.hook, RECORDED.url)).toEqual(expected);
  });
});
