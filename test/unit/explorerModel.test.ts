import { describe, expect, it } from "vitest";
import type { Hook } from "../../provider/hooks";
import { applyEdit, INITIAL_TARGETS, type StackDecl, type Step } from "../../scripts/explorer/model";

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
