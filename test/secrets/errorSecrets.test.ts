/**
 * Issue 10, secrets: every error the client can raise, for every way a call can fail, carries neither the
 * API key nor its base64 (message, stack, JSON of its fields, or a deep inspect with its cause chain). The
 * failures come from real servers on loopback: the simulator's faults and statuses, and a small server that
 * echoes the Authorization header back, as debugging proxies and some error pages do.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ShippingClient, ShippingClientOptions } from "../../provider/client/shippingClient";
import {
  ShippingConnectionError,
  ShippingError,
  ShippingRequestError,
  ShippingResponseError,
} from "../../provider/errors";
import type { FaultSpec } from "../../simulator";
import { useAcmeClients, useAcmeSimulator } from "../support/acmeSimulator";
import { rejectionOf } from "../support/rejection";
import { ACME_KEY, ACME_READ_ONLY_KEY, leaksOf } from "../support/shops";

const NO_RETRY: Partial<ShippingClientOptions> = {
  retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 10, maxRetryAfterMs: 1_000 },
  timeouts: { connectMs: 1_000, headersMs: 300, bodyMs: 300, deadlineMs: 5_000 },
};
const HOOK = "order_status_change";

const acme = useAcmeSimulator({ switches: { authScheme: "both" } });
let echo: Server;
let echoUrl: string;

/** Answers with the Authorization header (raw and decoded) in bodies and headers, in several shapes. */
function echoHandler(req: IncomingMessage, res: ServerResponse): void {
  const authorization = req.headers.authorization ?? "";
  const token = authorization.split(" ")[1] ?? "";
  const decoded = Buffer.from(token, "base64").toString("utf8");
  const reveal = `auth=${authorization} token=${token} key=${decoded}`;
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json", "x-echo": reveal });
    res.end(JSON.stringify(body));
  };
  if (req.url === "/html/webhook_subscriptions/") {
    res.writeHead(200, { "content-type": "text/html", "x-echo": reveal });
    res.end(`<html><body>You sent ${reveal}</body></html>`);
  } else if (req.url === "/shape/webhook_subscriptions/") json(200, { data: { echo: reveal } });
  else if (req.url === "/error/webhook_subscriptions/")
    json(400, { message: reveal, errors: [{ status: 400, code: 1, title: reveal, message: reveal }] });
  else {
    res.writeHead(502, { "content-type": "text/html", "x-echo": reveal });
    res.end(`<h1>Bad gateway</h1><pre>${reveal}</pre>`);
  }
}

beforeAll(async () => {
  echo = createServer(echoHandler);
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => {
    echo.close(() => resolve());
    echo.closeAllConnections();
  });
});

const client = useAcmeClients(acme, NO_RETRY);

function failure(call: Promise<unknown>): Promise<ShippingError> {
  return rejectionOf(call, ShippingError);
}

/** Every place a key could hide in an error: message, stack, its fields as JSON, and a deep inspect. */
function everything(error: ShippingError): string {
  return [
    error.message,
    error.stack ?? "",
    JSON.stringify(error),
    JSON.stringify(Object.fromEntries(Object.entries(error))),
    inspect(error, { depth: Number.POSITIVE_INFINITY }),
  ].join("\n");
}

const post = (api: ShippingClient, url = "https://hooks.example.com/o") => api.create([{ hook: HOOK, url }]);

/** Any class of error the client raises. */
type ErrorClass = abstract new (...args: never[]) => ShippingError;

/** One way a call fails: the key it used, the error it must raise and what that error must say. */
interface Case {
  readonly name: string;
  readonly key: string;
  readonly raises: ErrorClass;
  readonly says: RegExp;
  readonly call: () => Promise<unknown>;
  readonly fault?: FaultSpec;
}

const WRONG_KEY = "wrong-key-for-acme-01";
const echoing = (path: string) => () => client({ baseUrl: `${echoUrl}${path}` }).list();
const CASES: Case[] = [
  {
    name: "401 wrong key",
    key: WRONG_KEY,
    raises: ShippingRequestError,
    says: /status code 401/,
    call: () => client({ apiKey: WRONG_KEY }).list(),
  },
  {
    name: "403 read-only key",
    key: ACME_READ_ONLY_KEY,
    raises: ShippingRequestError,
    says: /status code 403/,
    call: () => post(client({ apiKey: ACME_READ_ONLY_KEY })),
  },
  {
    name: "404 unknown id",
    key: ACME_KEY,
    raises: ShippingRequestError,
    says: /status code 404/,
    call: () => client().delete([424242]),
  },
  {
    name: "422 invalid url",
    key: ACME_KEY,
    raises: ShippingRequestError,
    says: /status code 422/,
    call: () => post(client(), "https://Hooks.example.com/o"),
  },
  {
    name: "429 rate limited",
    key: ACME_KEY,
    raises: ShippingRequestError,
    says: /status code 429/,
    call: () => client().list(),
    fault: { kind: "status", status: 429 },
  },
  {
    name: "500 fault",
    key: ACME_KEY,
    raises: ShippingRequestError,
    says: /status code 500/,
    call: () => post(client()),
    fault: { kind: "status", status: 500 },
  },
  {
    name: "503 fault",
    key: ACME_KEY,
    raises: ShippingRequestError,
    says: /status code 503/,
    call: () => client().list(),
    fault: { kind: "status", status: 503 },
  },
  {
    name: "connection reset",
    key: ACME_KEY,
    raises: ShippingConnectionError,
    says: /ECONNRESET|UND_ERR_SOCKET/,
    call: () => post(client()),
    fault: { kind: "reset" },
  },
  {
    name: "write applied, then dropped",
    key: ACME_KEY,
    raises: ShippingConnectionError,
    says: /UND_ERR_SOCKET|ECONNRESET/,
    call: () => post(client()),
    fault: { kind: "drop-after-write" },
  },
  {
    name: "stall past the headers timeout",
    key: ACME_KEY,
    raises: ShippingConnectionError,
    says: /UND_ERR_HEADERS_TIMEOUT/,
    call: () => client().list(),
    fault: { kind: "stall", ms: 5_000 },
  },
  {
    name: "overall deadline",
    key: ACME_KEY,
    raises: ShippingConnectionError,
    says: /DEADLINE/,
    call: () =>
      client({
        timeouts: { headersMs: 200, deadlineMs: 700 },
        retry: { maxRetries: 50, baseDelayMs: 5, maxDelayMs: 10 },
      }).list(),
    fault: { kind: "stall", ms: 5_000 },
  },
  {
    name: "non-JSON 2xx that echoes the header",
    key: ACME_KEY,
    raises: ShippingResponseError,
    says: /not JSON/,
    call: echoing("/html"),
  },
  {
    name: "2xx of the wrong shape that echoes the header",
    key: ACME_KEY,
    raises: ShippingResponseError,
    says: /expected/,
    call: echoing("/shape"),
  },
  {
    name: "4xx whose API message echoes the header",
    key: ACME_KEY,
    raises: ShippingRequestError,
    says: /status code 400/,
    call: echoing("/error"),
  },
  {
    name: "5xx error page that echoes the header",
    key: ACME_KEY,
    raises: ShippingRequestError,
    says: /status code 502/,
    call: echoing("/page"),
  },
];

describe("no error the client raises carries the API key, raw or base64", () => {
  it.each(CASES)("$name", async ({ key, raises, says, call, fault }) => {
    if (fault !== undefined) acme.sim.addFault(fault);
    const error = await failure(call());
    expect(error).toBeInstanceOf(raises);
    expect(leaksOf(key, everything(error))).toEqual([]);
    // Still useful: it names the failure and the request.
    expect(error.message).toMatch(says);
    expect(error.message).toMatch(/webhook_subscriptions/);
  });

  it("401 because the service wants the other scheme word: the real key, sent twice, is in no error", async () => {
    acme.sim.setSwitches({ authScheme: "basic" });
    const error = await failure(client({ authScheme: "bearer" }).list());
    expect(error).toBeInstanceOf(ShippingRequestError);
    expect((error as ShippingRequestError).status).toBe(401);
    expect(leaksOf(ACME_KEY, everything(error))).toEqual([]);
  });

  it("an echoing server's answer is kept for diagnosis, with the key replaced", async () => {
    const error = (await failure(client({ baseUrl: `${echoUrl}/error` }).list())) as ShippingRequestError;
    expect(error.apiMessage).toMatch(/auth=bearer \[REDACTED\] token=\[REDACTED\] key=\[REDACTED\]/);
    expect(error.response.headers["x-echo"]).toMatch(/\[REDACTED\]/);
  });
});
