/**
 * A throwaway private CA and a server certificate it signed for 127.0.0.1 and localhost, made with the
 * `openssl` command: what a receiver needs to be reached over HTTPS by the simulator (`deliveryCa` /
 * `--delivery-ca` takes the CA's PEM) without touching the system's trust store.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A server's certificate and its private key, as PEM. */
export interface ServerCertificate {
  readonly cert: string;
  readonly key: string;
}

/** The CA's certificate and the server's certificate and key, as PEM. */
export interface PrivateCa<OtherHost extends string = never> {
  /** Trust this (and only this) to reach the receiver: `startSimulator({ deliveryCa: caPem })`. */
  readonly caPem: string;
  /** The receiver's certificate (for 127.0.0.1 and localhost) and its private key. */
  readonly server: ServerCertificate;
  /**
   * By host name, a certificate the same CA signed for that name only (the names `createPrivateCa` was given;
   * none by default): a server that presents one at 127.0.0.1 is one a client must refuse.
   */
  readonly otherHosts: Readonly<Record<OtherHost, ServerCertificate>>;
}

/** Days the certificates are valid: long enough for a CI run, short enough to be worthless if leaked. */
const CERTIFICATE_DAYS = 2;
/** Longest any one openssl call may take, in milliseconds. */
const OPENSSL_TIMEOUT_MS = 30_000;

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

/**
 * Make a fresh CA and a server certificate for 127.0.0.1 and localhost, and one for each of `otherHosts` (DNS
 * names), in a temporary folder, removed after.
 */
export async function createPrivateCa<OtherHost extends string = never>(
  otherHosts: readonly OtherHost[] = [],
): Promise<PrivateCa<OtherHost>> {
  const dir = await mkdtemp(join(tmpdir(), "receiver-ca-"));
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
      String(CERTIFICATE_DAYS),
      "-subj",
      "/CN=Webhook receiver test CA",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ]);
    const server = await signServerCertificate(dir, "server", "receiver", "IP:127.0.0.1,DNS:localhost");
    // One after another: each signing writes the CA's serial file (ca.srl).
    const others: Array<[OtherHost, ServerCertificate]> = [];
    for (const [index, host] of otherHosts.entries()) {
      others.push([host, await signServerCertificate(dir, `host-${index}`, host, `DNS:${host}`)]);
    }
    return {
      caPem: await readFile(join(dir, "ca.pem"), "utf8"),
      server,
      otherHosts: Object.fromEntries(others) as Record<OtherHost, ServerCertificate>,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A key and a server certificate for `altNames` (a subjectAltName value) signed by the CA in `dir`
 * (`ca.pem`, `ca.key`); its files there are named `file`.*.
 */
async function signServerCertificate(
  dir: string,
  file: string,
  commonName: string,
  altNames: string,
): Promise<ServerCertificate> {
  await openssl(dir, [
    "req",
    ...EC_KEY,
    "-keyout",
    `${file}.key`,
    "-out",
    `${file}.csr`,
    "-subj",
    `/CN=${commonName}`,
  ]);
  await writeFile(
    join(dir, `${file}.ext`),
    `subjectAltName=${altNames}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`,
  );
  await openssl(dir, [
    "x509",
    "-req",
    "-in",
    `${file}.csr`,
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-days",
    String(CERTIFICATE_DAYS),
    "-out",
    `${file}.pem`,
    "-extfile",
    `${file}.ext`,
  ]);
  const [cert, key] = await Promise.all(
    [`${file}.pem`, `${file}.key`].map((name) => readFile(join(dir, name), "utf8")),
  );
  return { cert: cert as string, key: key as string };
}
