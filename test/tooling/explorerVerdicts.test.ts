import { describe, expect, it } from "vitest";
import type { Change, LiveSub, Snapshot, StateRecord } from "../../scripts/explorer/ledger";
import type { ResourceDecl, StackDecl, Target } from "../../scripts/explorer/model";
import {
  continueKeepsDeclared,
  leftByKill,
  type OperationFacts,
  recordsKeptLive,
} from "../../scripts/explorer/verdicts";

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

/** A record the operation kept must stay live, but for the engine-order limits, row by row. */
describe("recordsKeptLive: a record removed by an operation that kept it", () => {
  const record: StateRecord = {
    name: "sub-bravo",
    id: WRITTEN.id,
    hook: WRITTEN.hook,
    url: WRITTEN.url,
    retainOnDelete: false,
    protect: false,
  };
  const twin: LiveSub = { ...WRITTEN, id: 2, url: "https://hooks.example.com/plain/0" };
  const twice = `error: ${WRITTEN.hook} is declared twice for shop 1 at http://127.0.0.1:1: shop alt and another shop entry of this stack are the same shop`;
  const facts = (text: string | undefined, after: Snapshot) =>
    ({
      op: "upRefresh",
      stack: "one",
      scope: undefined,
      killed: false,
      result: { ok: text === undefined, text: text ?? "", outputs: {} },
      before: new Map([["main/globex", [WRITTEN]]]),
      after,
      changes: [],
      recordsBefore: [record],
      records: [record],
      pendingAfter: [],
    }) as OperationFacts;
  const removed = `upRefresh of one failed and removed id 1 ${WRITTEN.hook} ${WRITTEN.url}, which sub-bravo records and still records`;
  it.each([
    ["overwritten by the twin declaration the engine created first, then refused", twice, [twin], []],
    ["gone from the shop although the refusal names the hook", twice, [], [removed]],
    ["overwritten, the failure another one", "error: 500 Internal Server Error", [twin], [removed]],
    ["still live", twice, [WRITTEN], []],
  ] as const)("%s", (_name, text, after, expected) => {
    expect(recordsKeptLive(facts(text, new Map([["main/globex", [...after]]])))).toEqual(expected);
  });
});
