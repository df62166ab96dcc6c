/**
 * Issue 10, transport: HTTPS only to the API except loopback, TLS verification never silently off, and a
 * custom CA through the client's `caCertificates` option and the `shipping:caCertificates` stack config.
 * The HTTPS API is the simulator behind a node:https front on 127.0.0.1 whose certificate a throwaway CA
 * (made with the openssl CLI for this run) signed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrivateCa, type PrivateCa } from "../../examples/receiver/privateCa";
import { ShippingClient } from "../../provider/client/shippingClient";
import { resolveShop } from "../../provider/config/settings";
import { ShippingConfigError, ShippingConnectionError } from "../../provider/errors";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { openProject } from "../support/engineProject";
import { FAST_CLIENT } from "../support/faults";
import { freshProvider } from "../support/provider";
import { rejectionOf } from "../support/rejection";
import { ACME_KEY, leaksOf } from "../support/shops";
import { type HttpsFront, httpsFront } from "./tls";

const HOOK = "order_status_change";
const URL_ = "https://hooks.example.com/tls";
const UNVERIFIED = /certificate|UNABLE_TO_VERIFY|SELF_SIGNED/i;
/** The host name of the CA's other certificate: not 127.0.0.1, so a client must refuse it there. */
const OTHER_HOST = "other.example";

/** The plain simulator (reset before each test); the HTTPS fronts below put it behind TLS. */
const acme = useAcmeSimulator();
let pki: PrivateCa<typeof OTHER_HOST>;
let front: HttpsFront;
let wrongHost: HttpsFront;
const clients: ShippingClient[] = [];

beforeAll(async () => {
  pki = await createPrivateCa([OTHER_HOST]);
  front = await httpsFront(acme.sim.baseUrl, pki.server);
  wrongHost = await httpsFront(acme.sim.baseUrl, pki.otherHosts[OTHER_HOST]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([front.close(), wrongHost.close()]);
});

function client(baseUrl: string, caCertificates?: string): ShippingClient {
  const made = new ShippingClient({
    baseUrl,
    apiKey: ACME_KEY,
    ...FAST_CLIENT,
    ...(caCertificates !== undefined ? { caCertificates } : {}),
  });
  clients.push(made);
  return made;
}

function rejection(call: Promise<unknown>): Promise<Error> {
  return rejectionOf(call, Error);
}

describe("TLS to the API", () => {
  it("refuses a certificate it cannot verify: no request reaches the API, nothing is retried into success", async () => {
    const before = front.forwarded();
    const error = await rejection(client(front.baseUrl).create([{ hook: HOOK, url: URL_ }]));
    expect(error).toBeInstanceOf(ShippingConnectionError);
    expect(`${error.message} ${String((error as { cause?: unknown }).cause)}`).toMatch(UNVERIFIED);
    expect(front.forwarded()).toBe(before);
    expect(acme.sim.requests()).toEqual([]);
    expect(acme.sim.subscriptions("acme")).toEqual([]);
  });

  it("works with the CA given as the client's caCertificates: create, list and delete over HTTPS", async () => {
    const api = client(front.baseUrl, pki.caPem);
    const [id] = await api.create([{ hook: HOOK, url: URL_ }]);
    expect(await api.list()).toMatchObject([{ id, hook: HOOK, url: URL_ }]);
    await api.delete([id ?? 0]);
    expect(acme.sim.subscriptions("acme")).toEqual([]);
    expect(acme.sim.requests().map((r) => r.status)).toEqual([200, 200, 204]);
  });

  it("still checks the host name when the CA is trusted", async () => {
    const before = wrongHost.forwarded();
    const error = await rejection(client(wrongHost.baseUrl, pki.caPem).list());
    expect(error).toBeInstanceOf(ShippingConnectionError);
    expect(`${error.message} ${String((error as { cause?: unknown }).cause)}`).toMatch(
      /ERR_TLS_CERT_ALTNAME_INVALID|altnames/,
    );
    expect(wrongHost.forwarded()).toBe(before);
  });

  it("the provider reads shipping:caCertificates from stack config at call time", async () => {
    const config = { "shipping:apiKey": ACME_KEY, "shipping:baseUrl": front.baseUrl };
    const without = await freshProvider(config);
    // A fresh provider loads fresh module instances: compare the class by name.
    const refused = await rejection(without.create({ hook: HOOK, url: URL_ }));
    expect(refused.name).toBe("ShippingConnectionError");
    expect(`${refused.message} ${String(refused.cause)}`).toMatch(UNVERIFIED);
    const withCa = await freshProvider({ ...config, "shipping:caCertificates": pki.caPem });
    const created = await withCa.create({ hook: HOOK, url: URL_ });
    expect(acme.sim.subscriptions("acme")).toEqual([{ id: Number(created.id), hook: HOOK, url: URL_ }]);
  });
});

describe("plain HTTP", () => {
  const NOT_LOOPBACK = [
    "http://api.example.com",
    "HTTP://API.EXAMPLE.COM",
    "http://127.0.0.1.nip.io",
    "http://localhost.example.com",
    "http://0.0.0.0:4010",
    "http://10.0.0.1",
    "http://[::ffff:7f00:1]",
    "http://127.0.0.1@api.example.com",
  ];

  it.each(NOT_LOOPBACK)("is refused to %s, by the client and by stack config", (baseUrl) => {
    expect(() => new ShippingClient({ baseUrl, apiKey: ACME_KEY })).toThrow(ShippingConfigError);
    const fromConfig = () =>
      resolveShop(
        undefined,
        (key) => ({ "shipping:apiKey": ACME_KEY, "shipping:baseUrl": baseUrl })[key],
        {},
      );
    expect(fromConfig).toThrow(/shipping:baseUrl: .*(must use HTTPS|must not contain credentials)/);
  });

  it("is refused at preview (check: the resource's error, not a property's), naming shipping:baseUrl, before any request", async () => {
    const provider = await freshProvider({
      "shipping:apiKey": ACME_KEY,
      "shipping:baseUrl": "http://api.example.com",
    });
    await expect(provider.check({}, { hook: HOOK, url: URL_ })).rejects.toThrow(
      /shipping:baseUrl: .*must use HTTPS/,
    );
  });

  it.each(["http://127.0.0.1:4010", "http://localhost:4010", "http://[::1]:4010", "https://127.0.0.1:4443"])(
    "is allowed to loopback, and HTTPS anywhere: %s",
    (baseUrl) => {
      expect(() => new ShippingClient({ baseUrl, apiKey: ACME_KEY })).not.toThrow();
    },
  );
});

describe("the real CLI over HTTPS", () => {
  it("up fails with a certificate error without shipping:caCertificates, and works once it is set", async () => {
    const project = await openProject("tls", {
      "shipping:apiKey": { value: ACME_KEY, secret: true },
      "shipping:baseUrl": { value: front.baseUrl },
      "shipping:timeouts": { value: JSON.stringify(FAST_CLIENT.timeouts) },
    });
    project.declare([{ name: "orders", hook: HOOK, url: URL_ }]);
    const refused = await project.run("up");
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(UNVERIFIED);
    expect(acme.sim.subscriptions("acme")).toEqual([]);

    await project.stack.setConfig("shipping:caCertificates", { value: pki.caPem });
    const up = await project.run("up");
    expect(up.error).toBe("");
    expect(acme.sim.subscriptions("acme")).toMatchObject([{ hook: HOOK, url: URL_ }]);
    const destroy = await project.run("destroy");
    expect(destroy.ok).toBe(true);
    expect(acme.sim.subscriptions("acme")).toEqual([]);
    expect(leaksOf(ACME_KEY, refused.error + up.printed + destroy.printed)).toEqual([]);
  });
});
