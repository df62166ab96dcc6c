/**
 * A throwaway private CA and a server certificate it signed for 127.0.0.1 and localhost, made with the
 * `openssl` command: what a receiver needs to be reached over HTTPS by the simulator (`deliveryCa` /
 * `--delivery-ca` takes the CA's PEM) without touching the system's trust store.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The CA's certificate and the server's certificate and key, as PEM. */
export interface PrivateCa {
  /** Trust this (and only this) to reach the receiver: `startSimulator({ deliveryCa: caPem })`. */
  readonly caPem: string;
  /** The receiver's certificate (for 127.0.0.1 and localhost) and its private key. */
  readonly server: { readonly cert: string; readonly key: string };
}

/** Days the certificates are valid: long enough for a CI run, short enough to be worthless if leaked. */
export const CERTIFICATE_DAYS = 2;
/** Longest any one openssl call may take, in milliseconds. */
export const OPENSSL_TIMEOUT_MS = 30_000;

const EC_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

function openssl(dir: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile("openssl", args, { cwd: dir, timeout: OPENSSL_TIMEOUT_MS }, (error, _stdout, stderr) => {
      if (error === null) return resolve();
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        return reject(
          new Error(
            "the receiver example needs the `openssl` command to make its private CA; install it (e.g. apt-get install openssl)",
          ),
        );
      }
      reject(new Error(`openssl ${args[0]} failed: ${stderr || error.message}`));
    });
  });
}

/** Make a fresh CA and a server certificate for 127.0.0.1 and localhost (in a temporary folder, removed after). */
export async function createPrivateCa(): Promise<PrivateCa> {
  const dir = await mkdtemp(join(tmpdir(), "receiver-ca-"));
  const days = String(CERTIFICATE_DAYS);
  try {
    await openssl(dir, [
      "req",
      "-x509",
      ...EC_KEY,
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
      "-days",
      days,
      "-subj",
      "/CN=Webhook receiver test CA",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ]);
    await openssl(dir, [
      "req",
      ...EC_KEY,
      "-keyout",
      "server.key",
      "-out",
      "server.csr",
      "-subj",
      "/CN=receiver",
    ]);
    await writeFile(
      join(dir, "server.ext"),
      "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n",
    );
    await openssl(dir, [
      "x509",
      "-req",
      "-in",
      "server.csr",
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-days",
      days,
      "-out",
      "server.pem",
      "-extfile",
      "server.ext",
    ]);
    const [caPem, cert, key] = await Promise.all(
      ["ca.pem", "server.pem", "server.key"].map((name) => readFile(join(dir, name), "utf8")),
    );
    return { caPem: caPem as string, server: { cert: cert as string, key: key as string } };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
