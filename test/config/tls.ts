import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A private CA and two server certificates it signed, as PEM. */
export interface TestPki {
  readonly caPem: string;
  /** For 127.0.0.1 and localhost. */
  readonly server: { readonly cert: string; readonly key: string };
  /** Signed by the same CA, but for another host name only. */
  readonly otherHost: { readonly cert: string; readonly key: string };
}

function openssl(dir: string, args: string[]): void {
  try {
    execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  } catch (error) {
    const failure = error as { code?: string; stderr?: Buffer };
    if (failure.code === "ENOENT") {
      throw new Error(
        "The TLS tests need the `openssl` command to generate a throwaway CA; install it (e.g. apt-get install openssl)",
      );
    }
    throw new Error(`openssl ${args.join(" ")} failed: ${failure.stderr?.toString() ?? String(error)}`);
  }
}

const EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

function leaf(dir: string, name: string, altNames: string): { cert: string; key: string } {
  openssl(dir, ["req", ...EC, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${name}`]);
  writeFileSync(
    join(dir, `${name}.ext`),
    `subjectAltName=${altNames}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`,
  );
  openssl(dir, [
    "x509",
    "-req",
    "-in",
    `${name}.csr`,
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-days",
    "2",
    "-out",
    `${name}.pem`,
    "-extfile",
    `${name}.ext`,
  ]);
  return {
    cert: readFileSync(join(dir, `${name}.pem`), "utf8"),
    key: readFileSync(join(dir, `${name}.key`), "utf8"),
  };
}

/** Generates a fresh CA and server certificates with the `openssl` CLI (fails clearly when it is missing). */
export function generatePki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), "shipping-pki-"));
  try {
    openssl(dir, [
      "req",
      "-x509",
      ...EC,
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
      "-days",
      "2",
      "-subj",
      "/CN=Shipping webhooks test CA",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ]);
    return {
      caPem: readFileSync(join(dir, "ca.pem"), "utf8"),
      server: leaf(dir, "server", "IP:127.0.0.1,DNS:localhost"),
      otherHost: leaf(dir, "other", "DNS:other.example"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An HTTPS front for a plain-HTTP API on loopback (TLS terminated here), counting the requests it passed on. */
export interface HttpsFront {
  readonly baseUrl: string;
  /** Requests that completed a TLS handshake and reached the API. */
  forwarded(): number;
  close(): Promise<void>;
}

/** Starts an HTTPS server on 127.0.0.1 with `identity` that forwards every request to `target`. */
export async function httpsFront(
  target: string,
  identity: { cert: string; key: string },
): Promise<HttpsFront> {
  const upstream = new URL(target);
  let forwarded = 0;
  const server: Server = createServer(identity, (req, res) => {
    forwarded += 1;
    const proxied = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    proxied.on("error", () => res.destroy());
    req.pipe(proxied);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `https://127.0.0.1:${port}`,
    forwarded: () => forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
