import { createHash, createHmac } from "node:crypto";

/** Credentials and endpoint of an S3-compatible server (path-style addressing, plain HTTP on loopback). */
export interface S3Endpoint {
  /** For example `http://127.0.0.1:7070` (no trailing slash). */
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** One object of a bucket listing. */
interface S3Object {
  readonly key: string;
  readonly size: number;
}

const SERVICE = "s3";
const ALGORITHM = "AWS4-HMAC-SHA256";
/** Every request of a test is bounded; a loopback S3 server answers in milliseconds. */
const REQUEST_TIMEOUT_MS = 15_000;

function sha256Hex(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac("sha256", key).update(data).digest();
}

/** RFC 3986 encoding as Signature Version 4 wants it (encodeURIComponent leaves !'()* alone). */
function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function decodeXml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

/**
 * A minimal S3 client signed with AWS Signature Version 4: enough for tests to create a bucket, list it and
 * read every object the Pulumi backend wrote, through the server's own API (not its files).
 */
export class S3Client {
  constructor(private readonly target: S3Endpoint) {}

  /** Sends one signed request; rejects with method, path, status and the server's answer unless 2xx. */
  async request(
    method: string,
    path: string,
    query: Record<string, string> = {},
    body = "",
  ): Promise<{ status: number; body: Buffer }> {
    const url = new URL(this.target.endpoint);
    const canonicalPath = path
      .split("/")
      .map((segment) => encodeRfc3986(segment))
      .join("/");
    const canonicalQuery = Object.keys(query)
      .sort()
      .map((key) => `${encodeRfc3986(key)}=${encodeRfc3986(query[key] ?? "")}`)
      .join("&");
    const amzDate = new Date()
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
    const day = amzDate.slice(0, 8);
    const payloadHash = sha256Hex(body);
    const headers: Record<string, string> = {
      host: url.host,
      "x-amz-content-sha256": payloadHash,
      "x-amz-date": amzDate,
    };
    const signedHeaders = Object.keys(headers).sort().join(";");
    const canonicalHeaders = Object.keys(headers)
      .sort()
      .map((name) => `${name}:${headers[name]}\n`)
      .join("");
    const canonicalRequest = [
      method,
      canonicalPath,
      canonicalQuery,
      canonicalHeaders,
      signedHeaders,
      payloadHash,
    ].join("\n");
    const scope = `${day}/${this.target.region}/${SERVICE}/aws4_request`;
    const stringToSign = [ALGORITHM, amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
    let key = hmac(`AWS4${this.target.secretAccessKey}`, day);
    for (const part of [this.target.region, SERVICE, "aws4_request"]) key = hmac(key, part);
    const signature = createHmac("sha256", key).update(stringToSign).digest("hex");
    const authorization = `${ALGORITHM} Credential=${this.target.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;

    const address = `${this.target.endpoint}${canonicalPath}${canonicalQuery ? `?${canonicalQuery}` : ""}`;
    const { host: _host, ...sent } = headers;
    const response = await fetch(address, {
      method,
      headers: { ...sent, authorization },
      ...(body !== "" ? { body } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const answer = Buffer.from(await response.arrayBuffer());
    if (!response.ok) {
      throw new Error(
        `S3 ${method} ${path} answered ${response.status}: ${answer.toString("utf8").slice(0, 500)}`,
      );
    }
    return { status: response.status, body: answer };
  }

  /** Creates `bucket`. */
  async createBucket(bucket: string): Promise<void> {
    await this.request("PUT", `/${bucket}`);
  }

  /** Every object of `bucket` (ListObjectsV2, following continuation tokens). */
  async listObjects(bucket: string): Promise<S3Object[]> {
    const objects: S3Object[] = [];
    let token: string | undefined;
    for (let page = 0; page < 1_000; page++) {
      const query: Record<string, string> = { "list-type": "2" };
      if (token !== undefined) query["continuation-token"] = token;
      const xml = (await this.request("GET", `/${bucket}`, query)).body.toString("utf8");
      for (const [, content = ""] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        const key = /<Key>([\s\S]*?)<\/Key>/.exec(content)?.[1];
        const size = /<Size>(\d+)<\/Size>/.exec(content)?.[1];
        if (key !== undefined) objects.push({ key: decodeXml(key), size: Number(size ?? 0) });
      }
      token = /<NextContinuationToken>([\s\S]*?)<\/NextContinuationToken>/.exec(xml)?.[1];
      if (!/<IsTruncated>true<\/IsTruncated>/.test(xml) || token === undefined) return objects;
      token = decodeXml(token);
    }
    throw new Error(`listing ${bucket} did not end within 1000 pages`);
  }

  /** The bytes of one object. */
  async getObject(bucket: string, key: string): Promise<Buffer> {
    return (await this.request("GET", `/${bucket}/${key}`)).body;
  }

  /** Every object of `bucket` with its content as text (latin1, so any byte survives for scanning). */
  async readAll(bucket: string): Promise<Array<{ key: string; text: string }>> {
    const objects = await this.listObjects(bucket);
    return Promise.all(
      objects.map(async ({ key }) => ({ key, text: (await this.getObject(bucket, key)).toString("latin1") })),
    );
  }
}
