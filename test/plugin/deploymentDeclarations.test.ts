/**
 * The declarations one deployment's provider processes share (the plugin's default provider and an explicit
 * one): a hook declared for one shop by two resources in two processes is refused once, on the later one,
 * whichever process checks it; a resource checked again is no second; other deployments' files and a
 * deployment told by its engine address alone share nothing; two keys of one shop collide at create.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveShop } from "../../provider/config/settings";
import { SharedDeclarations } from "../../provider/facts/deploymentDeclarations";
import { ACME_KEY, ACME_SECOND_KEY } from "../support/shops";

const A = "urn:pulumi:dev::p::shipping:index:WebhookSubscription::a";
const B = "urn:pulumi:dev::p::shipping:index:WebhookSubscription::b";
const HOOK = "order_status_change";

/** The target of `apiKey` at one API, as the settings resolve it. */
function target(apiKey: string, shop?: string) {
  const config: Record<string, string> = { "shipping:baseUrl": "https://api.example.com" };
  if (shop === undefined) config["shipping:apiKey"] = apiKey;
  else config["shipping:shops"] = JSON.stringify({ [shop]: { apiKey } });
  return resolveShop(shop, (key) => config[key], {});
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "declarations-test-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Two provider processes of one deployment (their own objects on one file). */
function twoProcesses(key = "deployment-1") {
  const file = join(dir, `${key}.declarations`);
  return [new SharedDeclarations(file, key), new SharedDeclarations(file, key)] as const;
}

describe("SharedDeclarations", () => {
  it("refuses the later of two resources declaring one hook for one key, in either process, and only it", () => {
    const [defaultProvider, explicitProvider] = twoProcesses();
    expect(defaultProvider.declare(target(ACME_KEY), HOOK, A)).toBeUndefined();
    // The explicit provider's shop entry has the same key: the same shop, whatever its name.
    expect(explicitProvider.declare(target(ACME_KEY, "acme"), HOOK, B)).toBe(A);
    // Checked again (a replacement's second check): still the first, still no second.
    expect(defaultProvider.declare(target(ACME_KEY), HOOK, A)).toBeUndefined();
    expect(explicitProvider.declare(target(ACME_KEY), HOOK, A)).toBeUndefined();
    expect(defaultProvider.declare(target(ACME_KEY), HOOK, B)).toBe(A);
    // Another hook, or another key: another declaration.
    expect(explicitProvider.declare(target(ACME_KEY), "shipment_label_created", B)).toBeUndefined();
    expect(explicitProvider.declare(target(ACME_SECOND_KEY), HOOK, B)).toBeUndefined();
  });

  it("decides by the file's order, whichever process wrote first: the later line is refused", () => {
    const [first, second] = twoProcesses();
    expect(second.declare(target(ACME_KEY), HOOK, B)).toBeUndefined();
    expect(first.declare(target(ACME_KEY), HOOK, A)).toBe(B);
    expect(second.declare(target(ACME_KEY), HOOK, B)).toBeUndefined();
  });

  it("skips a line it cannot read and goes on reading the others", () => {
    const [one, other] = twoProcesses();
    const file = join(dir, "deployment-1.declarations");
    expect(one.declare(target(ACME_KEY), "shipment_label_created", A)).toBeUndefined();
    const whole = readFileSync(file, "utf8");
    writeFileSync(file, "not json\n", { flag: "a" });
    expect(other.declare(target(ACME_KEY), "shipment_label_created", B)).toBe(A);
    expect(() => other.declare(target(ACME_KEY), HOOK, B)).not.toThrow();
    expect(whole).not.toContain(ACME_KEY);
  });

  it("refuses a second declaration after a line an append left cut short (ENOSPC, a crash)", () => {
    const [one, other] = twoProcesses();
    writeFileSync(join(dir, "deployment-1.declarations"), '["declare:abc","x","urn:crashed"');
    expect(one.declare(target(ACME_KEY), HOOK, A)).toBeUndefined();
    expect(other.declare(target(ACME_KEY), HOOK, B)).toBe(A);
  });

  it("holds no key, and digests no other deployment can match", () => {
    const [here] = twoProcesses("deployment-1");
    const [later] = twoProcesses("deployment-2");
    here.declare(target(ACME_KEY), HOOK, A);
    here.createIn(target(ACME_KEY), { shopId: "1" }, HOOK);
    // An earlier deployment's file names the hook for the shop: another deployment is not refused by it.
    expect(later.declare(target(ACME_KEY), HOOK, B)).toBeUndefined();
    const text = readFileSync(join(dir, "deployment-1.declarations"), "utf8");
    expect(text).not.toContain(ACME_KEY);
    expect(text).not.toContain("api.example.com");
  });

  it("shares nothing without a deployment known by its CLI process (an engine address may be reused)", () => {
    const file = join(dir, "by-address.declarations");
    const deployment = { key: "k", cliKnown: false, file: () => file };
    const one = SharedDeclarations.ofProcess(deployment);
    const other = SharedDeclarations.ofProcess(deployment);
    one.declare(target(ACME_KEY), HOOK, A);
    expect(other.declare(target(ACME_KEY), HOOK, B)).toBeUndefined();
    const known = { ...deployment, cliKnown: true };
    SharedDeclarations.ofProcess(known).declare(target(ACME_KEY), HOOK, A);
    expect(SharedDeclarations.ofProcess(known).declare(target(ACME_KEY), HOOK, B)).toBe(A);
  });

  it("refuses a create of a hook that another key of the same shop (as the service reports it) created", () => {
    const [defaultProvider, explicitProvider] = twoProcesses();
    expect(defaultProvider.createIn(target(ACME_KEY), { shopId: "1" }, HOOK)).toBe(false);
    expect(defaultProvider.createIn(target(ACME_KEY), { shopId: "1" }, HOOK)).toBe(false);
    expect(explicitProvider.createIn(target(ACME_KEY, "acme"), { shopId: "1" }, HOOK)).toBe(false);
    expect(explicitProvider.createIn(target(ACME_SECOND_KEY), { shopId: "1" }, HOOK)).toBe(true);
    expect(explicitProvider.createIn(target(ACME_SECOND_KEY), { shopId: "2" }, HOOK)).toBe(false);
  });

  it("takes shop 1 of two accounts for two shops, in processes of one deployment", () => {
    const [defaultProvider, explicitProvider] = twoProcesses();
    expect(defaultProvider.createIn(target(ACME_KEY), { shopId: "1", accountId: "a" }, HOOK)).toBe(false);
    expect(explicitProvider.createIn(target(ACME_SECOND_KEY), { shopId: "1", accountId: "b" }, HOOK)).toBe(
      false,
    );
    expect(explicitProvider.createIn(target(ACME_SECOND_KEY), { shopId: "1", accountId: "a" }, HOOK)).toBe(
      true,
    );
  });
});
