import { describe, expect, it } from "vitest";
import type { Hook } from "../../provider/inputs/hooks";
import { applyEdit } from "../../scripts/explorer/edits";
import { INITIAL_TARGETS, type StackDecl, type Step } from "../../scripts/explorer/model";

/**
 * The explorer must only generate programs the engine accepts; otherwise a run reports a program error as a
 * provider violation (seed 2021 did: a new resource took the name another one kept as its alias).
 */
const empty: StackDecl = { resources: [], targets: INITIAL_TARGETS };

function apply(steps: readonly Step[]): StackDecl | undefined {
  let decl: StackDecl | undefined = empty;
  for (const step of steps) decl = decl === undefined ? undefined : applyEdit(decl, step);
  return decl;
}

const add = (
  name: "sub-alpha" | "sub-bravo" | "sub-charlie",
  hook: Hook = name === "sub-alpha" ? "order_status_change" : "shipment_status_change",
): Step => ({
  kind: "add",
  stack: "one",
  name,
  hook,
  url: 0,
  secret: false,
  shop: "default",
});

describe("explorer model: names kept as aliases", () => {
  const renamed: Step[] = [
    add("sub-alpha"),
    { kind: "rename", stack: "one", name: "sub-alpha", to: "sub-bravo", alias: true },
  ];

  it("a rename with an alias keeps the old name as the alias", () => {
    expect(apply(renamed)?.resources.map((r) => [r.name, r.aliasOf])).toEqual([["sub-bravo", "sub-alpha"]]);
  });

  it("does not add a resource under a name another keeps as its alias", () => {
    expect(apply([...renamed, add("sub-alpha", "shipment_label_created")])).toBeUndefined();
  });

  it("does not rename onto a name another keeps as its alias", () => {
    const steps: Step[] = [
      ...renamed,
      add("sub-charlie"),
      { kind: "rename", stack: "one", name: "sub-charlie", to: "sub-alpha", alias: false },
    ];
    expect(apply(steps)).toBeUndefined();
  });

  it("a rename without an alias frees the old name", () => {
    const steps: Step[] = [
      add("sub-alpha"),
      { kind: "rename", stack: "one", name: "sub-alpha", to: "sub-bravo", alias: false },
      add("sub-alpha", "shipment_label_created"),
    ];
    expect(apply(steps)?.resources.map((r) => r.name)).toEqual(["sub-bravo", "sub-alpha"]);
  });
});

describe("explorer model: a program that reads its hooks from stack config", () => {
  const toConfig: Step = { kind: "shape", stack: "one", shape: "config" };

  it("names each resource by its hook, without options or aliases", () => {
    const steps: Step[] = [
      add("sub-alpha"),
      { kind: "setOption", stack: "one", name: "sub-alpha", option: "protect", value: true },
      { kind: "rename", stack: "one", name: "sub-alpha", to: "sub-bravo", alias: true },
      toConfig,
    ];
    const decl = apply(steps);
    expect(decl?.shape).toBe("config");
    expect(decl?.resources.map((r) => [r.name, r.protect, r.aliasOf])).toEqual([
      ["order_status_change", false, undefined],
    ]);
  });

  it("is not taken by a program with nothing declared, one hook twice or two shop entries", () => {
    expect(apply([toConfig])).toBeUndefined();
    const alt: Step = { ...add("sub-bravo"), shop: "alt" } as Step;
    expect(apply([add("sub-alpha"), alt, toConfig])).toBeUndefined();
  });

  it("adds under the hook's name and the program's one shop entry, refuses options, renames and the last removal", () => {
    const base = [add("sub-alpha"), toConfig];
    const added = apply([...base, { ...add("sub-charlie", "shipment_label_created"), shop: "alt" } as Step]);
    expect(added?.resources.map((r) => [r.name, r.shop])).toEqual([
      ["order_status_change", "default"],
      ["shipment_label_created", "default"],
    ]);
    const name = "order_status_change";
    expect(
      apply([...base, { kind: "setOption", stack: "one", name, option: "protect", value: true }]),
    ).toBeUndefined();
    expect(
      apply([...base, { kind: "rename", stack: "one", name, to: "sub-bravo", alias: true }]),
    ).toBeUndefined();
    expect(apply([...base, { kind: "remove", stack: "one", name }])).toBeUndefined();
  });

  it("moves every hook to another shop entry at once, and takes another hook as another resource", () => {
    const base = [add("sub-alpha"), add("sub-bravo"), toConfig];
    const moved = apply([
      ...base,
      { kind: "setShop", stack: "one", name: "order_status_change", shop: "alt" },
    ]);
    expect(moved?.resources.map((r) => r.shop)).toEqual(["alt", "alt"]);
    const rehooked = apply([
      ...base,
      { kind: "setHook", stack: "one", name: "order_status_change", hook: "shipment_label_created" },
    ]);
    expect(rehooked?.resources.map((r) => r.name)).toEqual([
      "shipment_label_created",
      "shipment_status_change",
    ]);
  });
});
