/**
 * Who may reach the simulator, in one place (simulator/README.md "Binding another address" says the same).
 *
 * - Bind address: loopback unless started with `expose` (`--expose --host 0.0.0.0`), which binds the given
 *   address and lets control requests come from other machines (`controlPeerAllowed`): everything that can
 *   reach that address can then drive the simulator, so expose it on a private network only (a CI job's
 *   service network, a docker network).
 * - Host allowlist, exposed or not: a request (any path) whose Host is not a loopback name nor one of
 *   `allowedHosts` is refused 403 (`hostPolicyProblem`).
 * - Web pages, exposed or not (issue 29, defect 1): a browser sends a form or a `text/plain` POST to any site
 *   without asking first, and a page can rebind its own DNS name to 127.0.0.1 to read answers; so a control
 *   request is also refused when it says it comes from another origin (`Origin`, `Sec-Fetch-Site`) or carries
 *   a body not declared as JSON (which a browser only sends cross-origin after a CORS preflight this
 *   simulator never grants). curl and test code send none of these and are not affected.
 */
import type { IncomingMessage } from "node:http";
import { isIPv4, isIPv6 } from "node:net";
import { ApiError, ERROR_CODES } from "./errors";
import { isJsonContentType } from "./validation";

/** Whether a peer address is loopback: 127.0.0.0/8, ::1, or IPv4-mapped 127.x. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  if (isIPv4(v4)) return v4.startsWith("127.");
  return isIPv6(address) && (address === "::1" || address === "0:0:0:0:0:0:0:1");
}

/** Whether a control request may come from `remoteAddress`: a loopback peer, or any when `exposed`. */
export function controlPeerAllowed(remoteAddress: string | undefined, exposed: boolean): boolean {
  return exposed ? remoteAddress !== undefined : isLoopbackAddress(remoteAddress);
}

/** `Sec-Fetch-Site` values of a request a user or the page's own origin made. */
const SAME_ORIGIN_FETCH = new Set(["same-origin", "none"]);
const LONGEST_SHOWN = 100;

/** Whether the host part of a Host value (`name[:port]`, `[v6][:port]`) is loopback. */
function isLoopbackHostValue(value: string): boolean {
  const host = value.startsWith("[") ? value.slice(1, value.indexOf("]")) : (value.split(":")[0] ?? "");
  const name = host.toLowerCase();
  return name === "localhost" || name.endsWith(".localhost") || isLoopbackAddress(name);
}

/** The name part of a Host value, lower-case, without port or brackets. */
function hostName(value: string): string {
  const host = value.startsWith("[") ? value.slice(1, value.indexOf("]")) : (value.split(":")[0] ?? "");
  return host.toLowerCase();
}

/** Whether a Host value names loopback or one of the names the simulator was told it is reached by. */
function hostAllowed(value: string, allowed: ReadonlySet<string>): boolean {
  return isLoopbackHostValue(value) || allowed.has(hostName(value));
}

/**
 * The 403 of a request (any path: the API's too) whose Host names neither loopback nor an allowed name
 * (`allowedHosts`, `--allow-host`): a web page can point its own DNS name at 127.0.0.1 and then call the
 * simulator as a same-origin page, credentials included (DNS rebinding). A request without Host
 * (HTTP/1.0) is not refused: a browser always sends one.
 */
export function hostPolicyProblem(req: IncomingMessage, allowed: ReadonlySet<string>): ApiError | undefined {
  const host = req.headers.host;
  if (host === undefined || hostAllowed(host, allowed)) return undefined;
  return forbidden(
    `the simulator answers requests addressed to a loopback name (127.0.0.1, [::1] or localhost)${allowed.size > 0 ? ` or to ${[...allowed].join(", ")}` : ""}, not Host ${shown(host)}: a web page that points its own name at this machine is refused; use the URL the simulator printed, or start it with --allow-host <name> (allowedHosts) for a name you reach it by`,
  );
}

function forbidden(message: string): ApiError {
  return new ApiError(403, ERROR_CODES.generic, "Forbidden", message);
}

const shown = (value: string): string => JSON.stringify(value.slice(0, LONGEST_SHOWN));

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length.trim() !== "0");
}

/** The 403 / 415 a control request gets before any handler, or undefined when it may go on. */
export function controlRefusal(req: IncomingMessage, allowed: ReadonlySet<string>): ApiError | undefined {
  const hostProblem = hostPolicyProblem(req, allowed);
  if (hostProblem !== undefined) return hostProblem;
  const host = req.headers.host;
  const origin = req.headers.origin;
  if (
    origin !== undefined &&
    (host === undefined || origin.toLowerCase() !== `http://${host.toLowerCase()}`)
  ) {
    return forbidden(
      `control endpoints refuse cross-site requests (Origin ${shown(origin)}); call them from a program such as curl, or from a page served by this simulator`,
    );
  }
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && !SAME_ORIGIN_FETCH.has(site.toLowerCase())) {
    return forbidden(
      `control endpoints refuse cross-site requests (Sec-Fetch-Site: ${site.slice(0, LONGEST_SHOWN)}); call them from a program such as curl`,
    );
  }
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  const type = req.headers["content-type"];
  if ((type !== undefined || hasBody(req)) && !isJsonContentType(type)) {
    return new ApiError(
      415,
      ERROR_CODES.generic,
      "Unsupported media type",
      `control request bodies are JSON: send Content-Type: application/json (got ${type === undefined ? "none" : shown(type)}); a form or text/plain body, which any web page can send, is refused`,
    );
  }
  return undefined;
}
