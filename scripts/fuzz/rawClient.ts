/**
 * A minimal HTTP/1.1 client over a raw TCP socket, for sending bytes no well-behaved client would (bad
 * framing, odd targets, missing Host) and reading the answer: status, headers and body, skipping 1xx.
 */
import { connect, type Socket } from "node:net";

/** One answer read from the socket. */
export interface RawReply {
  status: number;
  /** Lower-case names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection after this answer (or said it would). */
  closing: boolean;
}

/** What came back: an answer, or why none did ("closed", "timeout", a socket error code). */
export type RawOutcome = { reply: RawReply } | { error: string };

const HEAD_END = "\r\n\r\n";

function parseHead(text: string): { status: number; headers: Record<string, string> } | undefined {
  const [statusLine = "", ...lines] = text.split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  if (status === undefined) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { status: Number(status), headers };
}

/** A chunked body starting at `start`: its text and where it ends, or undefined while incomplete. */
function dechunk(buffer: Buffer, start: number): { body: string; end: number } | undefined {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf("\r\n", at);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(buffer.subarray(at, lineEnd).toString("latin1"), 16);
    if (!Number.isFinite(size)) return undefined;
    if (size === 0) {
      const trailerEnd = buffer.indexOf(HEAD_END, lineEnd);
      const end =
        buffer.subarray(lineEnd, lineEnd + 4).toString("latin1") === HEAD_END ? lineEnd + 4 : trailerEnd + 4;
      if (trailerEnd === -1 && end !== lineEnd + 4) return undefined;
      return { body: Buffer.concat(parts).toString("utf8"), end };
    }
    if (buffer.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** One keep-alive connection; exchanges run one at a time. */
export class RawConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;
  private failure: string | undefined;
  private wake: (() => void) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    socket.on("end", () => {
      this.ended = true;
      this.wake?.();
    });
    socket.on("close", () => {
      this.ended = true;
      this.wake?.();
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      this.failure = error.code ?? error.message;
      this.wake?.();
    });
  }

  /** Open a connection to `host`:`port`; rejects with the socket error. */
  static open(host: string, port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      socket.setNoDelay(true);
      socket.once("connect", () => {
        socket.off("error", reject);
        resolve(new RawConnection(socket));
      });
      socket.once("error", reject);
    });
  }

  /** Whether the connection can carry another request. */
  get usable(): boolean {
    return !this.ended && this.failure === undefined && !this.socket.destroyed;
  }

  /** Send `bytes` (one request) and read one final answer; `head` = the request was HEAD (no body follows). */
  async exchange(bytes: Buffer | string, head: boolean, timeoutMs: number): Promise<RawOutcome> {
    this.socket.write(bytes);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const reply = this.take(head);
      if (reply !== undefined) return { reply };
      if (this.failure !== undefined) return { error: this.failure };
      if (this.ended) return { error: "closed" };
      const left = deadline - Date.now();
      if (left <= 0) return { error: "timeout" };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /** Send bytes without waiting for anything (e.g. half a request). */
  write(bytes: Buffer | string): void {
    this.socket.write(bytes);
  }

  /** Destroy the socket. */
  close(): void {
    this.socket.destroy();
  }

  /** The next complete final answer in the buffer (consumed), or undefined if more bytes are needed. */
  private take(head: boolean): RawReply | undefined {
    for (;;) {
      const end = this.buffer.indexOf(HEAD_END);
      if (end === -1) return undefined;
      const parsed = parseHead(this.buffer.subarray(0, end).toString("latin1"));
      if (parsed === undefined) {
        this.failure = `unparsable answer: ${this.buffer.subarray(0, 80).toString("latin1")}`;
        return undefined;
      }
      const bodyStart = end + HEAD_END.length;
      if (parsed.status >= 100 && parsed.status < 200) {
        this.buffer = this.buffer.subarray(bodyStart);
        continue;
      }
      const closing = /close/i.test(parsed.headers.connection ?? "");
      const declared = parsed.headers["content-length"];
      const noBody = head || parsed.status === 204 || parsed.status === 304;
      if (!noBody && /chunked/i.test(parsed.headers["transfer-encoding"] ?? "")) {
        const chunked = dechunk(this.buffer, bodyStart);
        if (chunked === undefined) return undefined;
        this.buffer = this.buffer.subarray(chunked.end);
        return { status: parsed.status, headers: parsed.headers, body: chunked.body, closing };
      }
      let length: number;
      if (noBody) length = 0;
      else if (declared !== undefined) length = Number(declared);
      else if (this.ended) length = this.buffer.length - bodyStart;
      else return undefined;
      if (this.buffer.length < bodyStart + length) return undefined;
      const body = this.buffer.subarray(bodyStart, bodyStart + length).toString("utf8");
      this.buffer = this.buffer.subarray(bodyStart + length);
      return { status: parsed.status, headers: parsed.headers, body, closing };
    }
  }
}

/** Open a connection, send one request, read its answer, close. */
export async function rawRequest(
  baseUrl: string,
  bytes: Buffer | string,
  options: { head?: boolean; timeoutMs?: number } = {},
): Promise<RawOutcome> {
  const url = new URL(baseUrl);
  const connection = await RawConnection.open(url.hostname.replace(/^\[(.*)\]$/, "$1"), Number(url.port));
  try {
    return await connection.exchange(bytes, options.head ?? false, options.timeoutMs ?? 10_000);
  } finally {
    connection.close();
  }
}
