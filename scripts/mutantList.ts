/**
 * The mutants of `npm run test:mutants` (scripts/mutants.ts): for each pure rule, exact pieces of its source and
 * what each becomes, with the behaviour folder whose table files must notice. Data of its own, so that a fast
 * test (test/tooling/mutantList.test.ts) fails when a rule's source no longer holds a mutant's piece.
 */

/** A change of one rule, the behaviour folder whose tests must notice it, and which of its fast files run. */
export interface Mutant {
  readonly name: string;
  readonly file: string;
  readonly from: string;
  readonly to: string;
  readonly folder: string;
  /** The folder's fast test files that run against the mutant (each under `folder`): its tables. */
  readonly tests: readonly string[];
}

/**
 * The fast files of each folder that state its rule row by row. A mutant runs these, not the whole folder: the
 * folder's other fast files (a simulator behind the provider, 10,000 generated inputs) take most of a run,
 * and a rule's change must show in its table.
 */
const CALLBACK_URL = {
  folder: "test/callback-url",
  tests: ["test/callback-url/checkInputs.test.ts", "test/callback-url/callbackUrl.test.ts"],
} as const;
const OWNERSHIP = {
  folder: "test/ownership",
  tests: ["test/ownership/ownership.read.test.ts", "test/ownership/ownership.writes.test.ts"],
} as const;
const ONE_HOOK_PER_SHOP = {
  folder: "test/one-hook-per-shop",
  tests: ["test/one-hook-per-shop/oneHookPerShop.table.test.ts"],
} as const;

/**
 * Mutants of each pure rule: the callback URL, ownership ("is it ours?", "which shop?", the pin, the account),
 * the create, one hook per shop. Each changes one piece of the rule as an outside review did; a survivor is a
 * row missing from the rule's table.
 */
export const MUTANTS: readonly Mutant[] = [
  {
    name: "URL rule accepts %7e (an encoded unreserved character)",
    file: "contract/callbackUrl.ts",
    from: "|7[0-9a]|7e)/i;",
    to: "|7[0-9a])/i;",
    ...CALLBACK_URL,
  },
  {
    name: "URL rule refuses port 65535",
    file: "contract/callbackUrl.ts",
    from: "Number(port) > LARGEST_PORT)",
    to: "Number(port) >= LARGEST_PORT)",
    ...CALLBACK_URL,
  },
  {
    name: "URL rule refuses the HTTPS port written out (:443)",
    file: "contract/callbackUrl.ts",
    from: 'const expected = port === undefined || port === HTTPS_DEFAULT_PORT ? "" : port;',
    to: 'const expected = port ?? "";',
    ...CALLBACK_URL,
  },
  {
    name: "URL rule accepts a host label of 64 characters",
    file: "contract/callbackUrl.ts",
    from: "/^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\\.?$/",
    to: "/^[a-z0-9_]([a-z0-9_-]{0,62}[a-z0-9_])?(\\.[a-z0-9_]([a-z0-9_-]{0,62}[a-z0-9_])?)*\\.?$/",
    ...CALLBACK_URL,
  },
  {
    name: 'URL rule accepts "%" with one hex digit (%4x)',
    file: "contract/callbackUrl.ts",
    from: "/%(?![0-9a-f]{2})/i",
    to: "/%(?![0-9a-f])/i",
    ...CALLBACK_URL,
  },
  {
    name: "ownership: a live subscription at another URL is still ours",
    file: "provider/rules/ownership.ts",
    from: "if (!isRecorded(live, recorded)) return",
    to: "if (false as boolean) return",
    ...OWNERSHIP,
  },
  {
    name: "ownership: another entry's shop is taken for the recorded shop",
    file: "provider/rules/locateRule.ts",
    from: "if (identity !== undefined && isSameShop(identity, recorded)) return",
    to: "if (identity !== undefined) return",
    ...OWNERSHIP,
  },
  {
    name: "ownership: shop 1 of another account is the recorded shop 1",
    file: "provider/rules/recorded.ts",
    from: "identity.shopId === recorded.shopId &&\n    (identity.accountId === undefined ||",
    to: "identity.shopId === recorded.shopId &&\n    (true ||",
    ...OWNERSHIP,
  },
  {
    name: "ownership: a delete unsubscribes a hook declared under another key of the same shop",
    file: "provider/rules/ownership.ts",
    from: "if (identity !== undefined && theirs !== undefined && isSameShop(identity, theirs)) return true;",
    to: "if (false as boolean) return true;",
    ...OWNERSHIP,
  },
  {
    name: "ownership: a pinned shop emptied by this deployment (not listed empty) fails its pin",
    file: "provider/rules/ownershipFacts.ts",
    from: "(shop.listing.length === 0 || shop.listedEmpty)",
    to: "shop.listedEmpty",
    ...OWNERSHIP,
  },
  {
    name: "create: a partner's subscription is overwritten without takeOver",
    file: "provider/rules/createRule.ts",
    from: 'return facts.takeOver ? "takeOver" : "refuse";',
    to: 'return "takeOver";',
    ...OWNERSHIP,
  },
  {
    name: "create: an opted-in overwrite is not said to be a takeover",
    file: "provider/rules/createRule.ts",
    from: 'return { kind: "post", live, takenOver: true };',
    to: 'return { kind: "post", live };',
    ...OWNERSHIP,
  },
  {
    name: "create: a refusal of a kept subscription does not name it",
    file: "provider/rules/createRule.ts",
    from: 'return { kind: "refuse", kept: live };',
    to: 'return { kind: "refuse" };',
    ...OWNERSHIP,
  },
  {
    name: "one hook per shop: a second declarer passes",
    file: "provider/rules/oneHookPerShop.ts",
    from: "return first === declarer ? undefined : first;",
    to: "return undefined;",
    ...ONE_HOOK_PER_SHOP,
  },
  {
    name: "one hook per shop: the same shop_id at two APIs is one shop",
    file: "provider/facts/declarations.ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the mutated source is a template literal
    from: "`${target.api}\\u0000${serviceShopKey(shop)}`",
    to: "serviceShopKey(shop)",
    ...ONE_HOOK_PER_SHOP,
  },
  {
    name: "one hook per shop: shop 1 of two accounts is one shop",
    file: "provider/rules/recorded.ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the mutated source is a template literal
    from: "identity.accountId === undefined ? identity.shopId : `${identity.accountId}\\u0000${identity.shopId}`",
    to: "identity.shopId",
    ...ONE_HOOK_PER_SHOP,
  },
];
