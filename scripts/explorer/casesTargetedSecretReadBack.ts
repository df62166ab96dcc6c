/**
 * Explorer sequences of targeted steps after a rename or onto a second shops entry, URLs from secret stack
 * config, and writes whose read-back fails (their names start 26.1, 26.2, 26.3 by those three subjects), each breaking an
 * invariant of an earlier provider; replayed with cases.ts's by `npm run explore -- --cases`. Each ends with
 * the steps a user takes next, so that it also passes only when the fix loses nothing afterwards.
 */
import { add, LABELS, type NamedCase, ORDERS, op, SHIPMENTS } from "./cases";
import {
  type DeclName,
  REFUSED_URL,
  type StackName,
  type Step,
  type Target,
  type TargetedOperation,
  type TargetMode,
} from "./model";

function targeted(stack: StackName, operation: TargetedOperation, mode: TargetMode, name: DeclName): Step {
  return { kind: "targeted", stack, op: operation, mode, name };
}

const KEEP_ID: Step = { kind: "switch", service: "main", patch: { overwrite: "keep-id" } };

/** A deployed hook renamed without an alias and rolled out with `up --target <new>`: both records hold its id. */
const RENAMED_TARGETED: readonly Step[] = [
  add("one", "sub-alpha", ORDERS, 0),
  op("one", "up"),
  { kind: "rename", stack: "one", name: "sub-alpha", to: "sub-bravo", alias: false },
  targeted("one", "up", "target", "sub-bravo"),
];

/**
 * A deployed hook (sub-alpha, ORDERS, default shop) declared again as sub-bravo under the shops entry `alt`,
 * which names the same shop through the main service by `spelling` with `key`; then `up --target sub-bravo`
 * and a full `up`.
 */
function redeclaredUnderAlt(spelling: Target["spelling"], key: Target["key"]): Step[] {
  return [
    { kind: "config", stack: "one", entry: "alt", target: { service: "main", spelling, key } },
    add("one", "sub-alpha", ORDERS, 0),
    op("one", "up"),
    add("one", "sub-bravo", ORDERS, 1, "alt"),
    targeted("one", "up", "target", "sub-bravo"),
    op("one", "up"),
  ];
}

/** Three hooks declared for a shop with no subscription (their first rollout is one POST and one read-back). */
const THREE_HOOKS: readonly Step[] = [
  add("one", "sub-alpha", ORDERS, 0),
  add("one", "sub-bravo", SHIPMENTS, 0),
  add("one", "sub-charlie", LABELS, 0),
];

/** Two deployed hooks whose URLs change (one POST, then a read-back of the two new ids). */
const TWO_URLS_CHANGED: readonly Step[] = [
  add("one", "sub-alpha", ORDERS, 0),
  add("one", "sub-bravo", SHIPMENTS, 0),
  op("one", "up"),
  { kind: "setUrl", stack: "one", name: "sub-alpha", url: 1, secret: false },
  { kind: "setUrl", stack: "one", name: "sub-bravo", url: 1, secret: false },
];

/** After a failed `up`: the `up` that takes over what it wrote, then a destroy that must remove it all. */
const RECOVER: readonly Step[] = [op("one", "up"), op("one", "destroy")];

/** Issue 26, items 1 to 3. */
export const TARGETED_SECRET_READ_BACK_CASES: readonly NamedCase[] = [
  {
    name: "a rename with an alias rolled out with up --target <new>: the engine renames the old record, which the model counts as the targeted resource's",
    steps: [
      add("one", "sub-alpha", LABELS, 0, "default", true),
      op("one", "up"),
      { kind: "rename", stack: "one", name: "sub-alpha", to: "sub-bravo", alias: true },
      { kind: "targeted", stack: "one", op: "up", mode: "target", name: "sub-bravo" },
      op("one", "up"),
    ],
  },
  {
    name: "26.1a rename without alias, up --target <new>, destroy --target <old>: deletes the subscription the new resource records",
    steps: [...RENAMED_TARGETED, targeted("one", "destroy", "target", "sub-alpha")],
  },
  {
    name: "26.1a rename without alias, up --target <new>, up --target <old>: the old one's delete removes the new one's subscription",
    steps: [...RENAMED_TARGETED, targeted("one", "up", "target", "sub-alpha")],
  },
  {
    name: "26.1a rename without alias, up --target <new>, up --exclude <new>: the same",
    steps: [...RENAMED_TARGETED, targeted("one", "up", "exclude", "sub-bravo")],
  },
  {
    name: "26.1a under keep-id: rename without alias, up --target <new>, destroy --target <old>",
    steps: [KEEP_ID, ...RENAMED_TARGETED, targeted("one", "destroy", "target", "sub-alpha")],
  },
  {
    name: "26.1b a deployed hook declared again under a shops entry with the default shop's key: up --target <second> overwrites the first's subscription",
    steps: redeclaredUnderAlt("ip", "acme1"),
  },
  {
    name: "26.1b the same with the shop's second key (localhost): up --target <second>",
    steps: redeclaredUnderAlt("localhost", "acme2"),
  },
  {
    name: "26.2 a hook's URL set as secret stack config (hooksFromConfig): stored in plain text in state, backups, history, export",
    steps: [
      add("one", "sub-alpha", ORDERS, 0, "default", true),
      { kind: "shape", stack: "one", shape: "config" },
      op("one", "up"),
    ],
  },
  {
    name: "26.2 a secret config URL with an uppercase letter: preview prints it in its error",
    steps: [
      add("one", "sub-alpha", ORDERS, REFUSED_URL, "default", true),
      { kind: "shape", stack: "one", shape: "config" },
      op("one", "preview"),
    ],
  },
  {
    name: "26.3 first rollout of three hooks, the read-back of the written ids fails once: nothing recorded, the error names no id",
    steps: [
      ...THREE_HOOKS,
      { kind: "fault", service: "main", fault: "500-after-post-once" },
      op("one", "up"),
      ...RECOVER,
    ],
  },
  {
    name: "26.3 the same with every read after the POST failing",
    steps: [
      ...THREE_HOOKS,
      { kind: "fault", service: "main", fault: "500-after-post" },
      op("one", "up"),
      ...RECOVER,
    ],
  },
  {
    name: "26.3 the POST applied, all its answers lost, the confirming listing fails",
    steps: [
      ...THREE_HOOKS,
      { kind: "fault", service: "main", fault: "lost-post-then-500" },
      op("one", "up"),
      ...RECOVER,
    ],
  },
  {
    name: "26.3 URL change of two hooks whose read-back fails: state keeps the old ids, which the POST replaced",
    steps: [
      ...TWO_URLS_CHANGED,
      { kind: "fault", service: "main", fault: "500-after-post-once" },
      op("one", "up"),
      ...RECOVER,
    ],
  },
  {
    name: "26.3 the same under keep-id: state keeps the old URLs",
    steps: [
      KEEP_ID,
      ...TWO_URLS_CHANGED,
      { kind: "fault", service: "main", fault: "500-after-post-once" },
      op("one", "up"),
      ...RECOVER,
    ],
  },
];
