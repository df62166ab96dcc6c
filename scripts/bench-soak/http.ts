/** HTTP calls of the soak traffic: ordinary requests, slow (trickled) uploads and aborted ones. */
import { type Agent, request } from "node:http";

/** An answer: status, body size and how long it took. */
export interface Reply {
  status: number;
  body: string;
  ms: number;
}

/** One request. */
export interface Call {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body in this many pieces, pausing `pauseMs` between them (a slow client). */
  pieces?: number;
  pauseMs?: number;
  /** Send this share (0..1) of the body, then destroy the connection: resolves undefined. */
  abortAfter?: number;
  /** Read at most this many body bytes of the answer, then destroy (a reader that goes away). */
  readLimit?: number;
}

/** Longest any soak request may take, in milliseconds. */
const CALL_TIMEOUT_MS = 60_000;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Send `call` to `baseUrl`; resolves undefined when the call aborted on purpose, rejects on other errors. */
export function send(agent: Agent | false, baseUrl: string, call: Call): Promise<Reply | undefined> {
  const url = new URL(baseUrl);
  const started = performance.now();
  const payload = call.body === undefined ? undefined : Buffer.from(call.body);
  const headers: Record<string, string> = { ...call.headers };
  if (payload !== undefined) headers["content-length"] = String(payload.length);
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (value: Reply | undefined, error?: Error): void => {
      if (settled) return;
      settled = true;
      if (error !== undefined) reject(error);
      else resolve(value);
    };
    const req = request(
      { agent, method: call.method, host: url.hostname, port: url.port, path: call.path, headers },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (call.readLimit === undefined) chunks.push(chunk);
          else if (size >= call.readLimit) {
            req.destroy();
            done(undefined);
          }
        });
        res.on("end", () =>
          done({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            ms: performance.now() - started,
          }),
        );
        res.on("error", (error) => done(undefined, error));
      },
    );
    req.setTimeout(CALL_TIMEOUT_MS, () => req.destroy(new Error(`${call.method} ${call.path}: timeout`)));
    req.on("error", (error) => done(undefined, error));
    void (async () => {
      if (payload === undefined) return req.end();
      if (call.abortAfter !== undefined) {
        req.write(payload.subarray(0, Math.floor(payload.length * call.abortAfter)));
        await pause(call.pauseMs ?? 10);
        req.destroy();
        return done(undefined);
      }
      const pieces = Math.max(1, call.pieces ?? 1);
      const step = Math.ceil(payload.length / pieces);
      for (let at = 0; at < payload.length; at += step) {
        if (at > 0) await pause(call.pauseMs ?? 0);
        if (req.destroyed) return;
        req.write(payload.subarray(at, at + step));
      }
      req.end();
    })();
  });
}
