/**
 * Issue 36 item 5: `--delivery-ca` adds to what Node trusts instead of replacing it. A receiver trusted
 * through NODE_EXTRA_CA_CERTS stays reachable when `--delivery-ca` names another CA, and both are reached.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrivateCa, type PrivateCa } from "../../examples/receiver/privateCa";
import { defaultRoots } from "../../simulator/deliveryHttp";
import type { EmittedSummary } from "../../simulator/index";
import { api, call, subs } from "./helpers";
import { startReceiver, type TestReceiver } from "./httpsReceiver";
import { killHard, type SimProcess, startSimProcess } from "./simProcess";

let receiver: TestReceiver;
let other: PrivateCa;
let dir: string;

beforeAll(async () => {
  receiver = await startReceiver();
  other = await createPrivateCa();
  dir = mkdtempSync(join(tmpdir(), "sim-trust-"));
  writeFileSync(join(dir, "receiver-ca.pem"), receiver.ca.caPem);
  writeFileSync(join(dir, "other-ca.pem"), other.caPem);
});

afterAll(async () => {
  await receiver.close();
});

/** Subscribe the receiver and emit one event; answers the attempt's outcome. */
async function deliverOnce(sim: SimProcess): Promise<EmittedSummary["attempts"][number] | undefined> {
  const target = { baseUrl: sim.baseUrl } as never;
  const created = await api(target, "POST", "/webhook_subscriptions", {
    body: subs(["order_status_change", `${receiver.url}/orders`]),
  });
  expect(created.status).toBe(200);
  const sent = await call(sim.baseUrl, "POST", "/__sim/events", { body: { kind: "order_status_change" } });
  expect(sent.status).toBe(200);
  return (sent.json as EmittedSummary).attempts[0];
}

describe("--delivery-ca adds to the trusted roots", () => {
  it.each([
    [
      "NODE_EXTRA_CA_CERTS names the receiver's CA, --delivery-ca another",
      "receiver-ca.pem",
      "other-ca.pem",
      200,
    ],
    ["--delivery-ca names the receiver's CA", undefined, "receiver-ca.pem", 200],
    ["neither names the receiver's CA (the control)", undefined, "other-ca.pem", undefined],
  ])("%s", async (_, extraCerts, deliveryCa, status) => {
    const env = extraCerts === undefined ? {} : { NODE_EXTRA_CA_CERTS: join(dir, extraCerts) };
    const args = ["--delivery-ca", join(dir, deliveryCa), "--delivery-attempts", "1"];
    const sim = await startSimProcess(args, env);
    try {
      const attempt = await deliverOnce(sim);
      expect(attempt?.status).toBe(status);
      if (status === undefined) expect(attempt?.error).toMatch(/certificate|CERT|verify/i);
    } finally {
      await killHard(sim);
    }
  });

  // Both ways of asking Node, on every Node: its own answer where it has tls.getCACertificates (Node 22.15+,
  // which read NODE_EXTRA_CA_CERTS at start), else the bundled roots plus NODE_EXTRA_CA_CERTS read from `env`.
  it("defaultRoots without tls.getCACertificates is Node's bundled roots plus NODE_EXTRA_CA_CERTS's certificates", () => {
    const roots = defaultRoots({ NODE_EXTRA_CA_CERTS: join(dir, "receiver-ca.pem") }, null);
    expect(roots.length).toBeGreaterThanOrEqual(tls.rootCertificates.length + 1);
    expect(roots.map((pem) => pem.replace(/\s/g, ""))).toContain(receiver.ca.caPem.trim().replace(/\s/g, ""));
    expect(defaultRoots({ NODE_EXTRA_CA_CERTS: join(dir, "missing.pem") }, null)).toHaveLength(
      tls.rootCertificates.length,
    );
  });

  it("defaultRoots with tls.getCACertificates is its default store, whatever `env` says", () => {
    const store = ["-----BEGIN CERTIFICATE-----\nstore\n-----END CERTIFICATE-----"];
    const asked: string[] = [];
    const get = (type: "default"): string[] => {
      asked.push(type);
      return store;
    };
    expect(defaultRoots({ NODE_EXTRA_CA_CERTS: join(dir, "receiver-ca.pem") }, get)).toEqual(store);
    expect(asked).toEqual(["default"]);
  });
});
