/**
 * Who owns each live subscription, learnt only from what the explorer watched happen: every operation is
 * bracketed by snapshots of every service, so each created, re-pointed or deleted subscription is
 * attributed to the one actor that ran in between (a stack, or the back office).
 */
import type { Hook } from "../../contract/hooks";
import type { StackName } from "./model";

/** A live subscription of one real shop (`<service>/<shop>`). */
export interface LiveSub {
  readonly shop: string;
  readonly id: number;
  readonly hook: Hook;
  readonly url: string;
}

/** Every live subscription, per real shop. */
export type Snapshot = ReadonlyMap<string, readonly LiveSub[]>;

/** Who last wrote a subscription: a stack, the back office, or nobody any more (a retained resource). */
type Writer = StackName | "backOffice" | "released";

interface Ownership {
  lastWriter: Writer;
  /** Stacks that wrote or adopted it and still record it in their state. */
  claimants: Set<StackName>;
}

/** What changed at one (shop, hook) between two snapshots. */
export interface Change {
  readonly shop: string;
  readonly hook: Hook;
  readonly before?: LiveSub;
  readonly after?: LiveSub;
}

/** A subscription a stack's state records. */
export interface StateRecord {
  readonly name: string;
  readonly id: number;
  readonly hook: string;
  readonly url: string;
  readonly retainOnDelete: boolean;
  readonly protect: boolean;
}

function subKey(sub: LiveSub): string {
  return `${sub.shop}#${sub.id}`;
}

function sameSub(a: LiveSub | undefined, b: LiveSub | undefined): boolean {
  return a?.id === b?.id && a?.url === b?.url;
}

/** The changes from `before` to `after`, per (shop, hook). */
export function changesBetween(before: Snapshot, after: Snapshot): Change[] {
  const changes: Change[] = [];
  const shops = new Set([...before.keys(), ...after.keys()]);
  for (const shop of shops) {
    const was = before.get(shop) ?? [];
    const now = after.get(shop) ?? [];
    const hooks = new Set([...was, ...now].map((s) => s.hook));
    for (const hook of hooks) {
      const b = was.find((s) => s.hook === hook);
      const a = now.find((s) => s.hook === hook);
      if (!sameSub(a, b))
        changes.push({ shop, hook, ...(b ? { before: b } : {}), ...(a ? { after: a } : {}) });
    }
  }
  return changes;
}

/** Every live subscription in a snapshot. */
export function allSubs(snapshot: Snapshot): LiveSub[] {
  return [...snapshot.values()].flat();
}

function describe(sub: LiveSub): string {
  return `${sub.shop} id ${sub.id} ${sub.hook} ${sub.url}`;
}

/** Ownership of every live subscription the explorer has seen written. */
export class Ledger {
  private readonly owners = new Map<string, Ownership>();

  /** Who last wrote `sub` (undefined: it predates the exploration, which never happens here). */
  writerOf(sub: LiveSub): Writer | undefined {
    return this.owners.get(subKey(sub))?.lastWriter;
  }

  /** Whether `stack` wrote or adopted `sub` and still records it. */
  isClaimedBy(sub: LiveSub, stack: StackName): boolean {
    return this.owners.get(subKey(sub))?.claimants.has(stack) ?? false;
  }

  /** Records the back office's changes. */
  recordBackOffice(changes: readonly Change[]): void {
    for (const change of changes) {
      if (change.before) this.owners.delete(subKey(change.before));
      if (change.after)
        this.owners.set(subKey(change.after), { lastWriter: "backOffice", claimants: new Set() });
    }
  }

  /**
   * Checks and records the changes made by one operation of `stack`, which currently declares the
   * `<shop>#<hook>` pairs in `declared`: it may delete only what it wrote or adopted, and may write only
   * where it declares. Answers the violations.
   */
  recordStackChanges(stack: StackName, declared: ReadonlySet<string>, changes: readonly Change[]): string[] {
    const violations: string[] = [];
    for (const change of changes) {
      const where = `${change.shop}#${change.hook}`;
      const { before, after } = change;
      if (before !== undefined && after === undefined) {
        if (!this.isClaimedBy(before, stack)) {
          violations.push(
            `stack ${stack} deleted ${describe(before)}, which ${this.writerOf(before) ?? "nobody it knows"} wrote and ${stack} did not own`,
          );
        }
      } else if (after !== undefined && !declared.has(where)) {
        const what =
          before === undefined
            ? "created"
            : `re-pointed ${describe(before)} (by ${this.writerOf(before)}) as`;
        violations.push(`stack ${stack} ${what} ${describe(after)} but does not declare ${where}`);
      }
      if (before !== undefined) this.owners.delete(subKey(before));
      if (after !== undefined)
        this.owners.set(subKey(after), { lastWriter: stack, claimants: new Set([stack]) });
    }
    return violations;
  }

  /**
   * Reconciles `stack`'s claims with its state after an operation. A record that matches a live
   * subscription of a shop where the stack declares that hook and URL is an adoption. A record that matches
   * only subscriptions someone else owns was written into the state without right. Claims the state no
   * longer records are dropped (a record pending deletion, the old resource of an interrupted replacement,
   * still claims its subscription: the next `up` deletes it); a retained resource's subscription is released.
   */
  reconcileState(
    stack: StackName,
    records: readonly StateRecord[],
    live: Snapshot,
    adoptable: (record: StateRecord, sub: LiveSub) => boolean,
    released: ReadonlySet<number>,
    pendingDeletion: readonly StateRecord[] = [],
  ): string[] {
    const violations: string[] = [];
    const subs = allSubs(live);
    for (const record of records) {
      const matches = subs.filter(
        (s) => s.id === record.id && s.hook === record.hook && s.url === record.url,
      );
      if (matches.length === 0) continue; // stale: the next refresh drops it
      if (matches.some((s) => this.isClaimedBy(s, stack))) continue;
      const mine = matches.find((s) => adoptable(record, s));
      if (mine !== undefined) {
        this.ownership(mine).claimants.add(stack);
        continue;
      }
      const sub = matches[0] as LiveSub;
      violations.push(
        `stack ${stack} records ${record.name} as ${describe(sub)}, which ${this.writerOf(sub) ?? "nobody it knows"} wrote and ${stack} does not declare there`,
      );
    }
    for (const sub of subs) {
      const ownership = this.owners.get(subKey(sub));
      if (ownership === undefined || !ownership.claimants.has(stack)) continue;
      const recorded = [...records, ...pendingDeletion].some(
        (r) => r.id === sub.id && r.hook === sub.hook && r.url === sub.url,
      );
      if (recorded) continue;
      ownership.claimants.delete(stack);
      if (released.has(sub.id) && ownership.lastWriter === stack) ownership.lastWriter = "released";
    }
    return violations;
  }

  private ownership(sub: LiveSub): Ownership {
    let ownership = this.owners.get(subKey(sub));
    if (ownership === undefined) {
      ownership = { lastWriter: "released", claimants: new Set() };
      this.owners.set(subKey(sub), ownership);
    }
    return ownership;
  }
}
