import { describe, expect, it } from "vitest";
import type { Change, LiveSub, Snapshot } from "../../scripts/explorer/ledger";
import type { ResourceDecl, StackDecl, Target } from "../../scripts/explorer/model";
import { continueKeepsDeclared, leftByKill, type OperationFacts } from "../../scripts/explorer/verdicts";

const RESOURCE: ResourceDecl = {
  name: "sub-bravo",
  hook: "shipment_label_created",
  url: 2,
  secret: false,
  shop: "default",
  deleteBeforeReplace: false,
  retainOnDelete: false,
  ignoreUrl: false,
  protect: false,
  takeOver: false,
};
const GLOBEX: Target = { service: "main", spelling: "localhost", key: "globex" };
const stackWith = (defaultTarget: Target): StackDecl => ({
  resources: [RESOURCE],
  targets: { default: defaultTarget, alt: { service: "main", spelling: "ip", key: "acme1" } },
});
const WRITTEN: LiveSub = {
  shop: "main/globex",
  id: 1,
  hook: RESOURCE.hook,
  url: "https://hooks.example.com/plain/2",
};
const created: Change = { shop: WRITTEN.shop, hook: WRITTEN.hook, after: WRITTEN };
const empty: Snapshot = new Map();
const listed: Snapshot = new Map([["main/globex", [{ ...WRITTEN, id: 9, hook: "order_status_change" }]]]);

/** The pin's documented limit, row by row: what a killed `up` may leave behind without a violation. */
describe("leftByKill: a write a SIGKILL left between a pinned shop's write and its undo", () => {
  it.each([
    [
      "pinned to acme, key reaches globex, which listed nothing",
      { ...GLOBEX, pin: "acme" as const },
      empty,
      [created],
      ["main/globex#shipment_label_created"],
    ],
    [
      "the same, but globex listed a subscription (no write needed to learn the shop)",
      { ...GLOBEX, pin: "acme" as const },
      listed,
      [created],
      [],
    ],
    ["not pinned: the write is the declaration's own", GLOBEX, empty, [created], []],
    ["pinned to the shop the key reaches", { ...GLOBEX, pin: "globex" as const }, empty, [created], []],
    [
      "an overwrite, not a create",
      { ...GLOBEX, pin: "acme" as const },
      empty,
      [{ ...created, before: { ...WRITTEN, id: 0 } }],
      [],
    ],
    [
      "another hook than any declaration's",
      { ...GLOBEX, pin: "acme" as const },
      empty,
      [{ ...created, hook: "order_status_change" }],
      [],
    ],
  ] as const)("%s", (_, target, before, changes, allowed) => {
    expect(leftByKill(stackWith(target), before, changes)).toEqual(allowed);
  });
});

/** `up --continue-on-error` and the hooks the program declares, row by row. */
describe("continueKeepsDeclared: a continue-on-error up never leaves a declared hook unsubscribed", () => {
  const globex: StackDecl = stackWith(GLOBEX);
  const live: Snapshot = new Map([["main/globex", [WRITTEN]]]);
  const facts = (op: "upContinue" | "up", before: Snapshot, after: Snapshot) =>
    ({ op, before, after }) as unknown as OperationFacts;
  it.each([
    ["the declared hook subscribed before and after", "upContinue", globex, live, live, []],
    [
      "the declared hook unsubscribed by it",
      "upContinue",
      globex,
      live,
      empty,
      ["up --continue-on-error unsubscribed main/globex shipment_label_created, which the program declares"],
    ],
    [
      "unsubscribed, but the declaring resource replaces with deleteBeforeReplace",
      "upContinue",
      { ...globex, resources: [{ ...RESOURCE, deleteBeforeReplace: true }] },
      live,
      empty,
      [],
    ],
    ["unsubscribed by a plain up (judged by the other invariants)", "up", globex, live, empty, []],
    ["not subscribed before", "upContinue", globex, empty, empty, []],
  ] as const)("%s", (_name, op, decl, before, after, expected) => {
    expect(continueKeepsDeclared(facts(op, before, after), decl)).toEqual(expected);
  });
});
