import { JSON_CONTENT_TYPE, USER_AGENT } from "../../contract/wire";
import { ShippingConfigError } from "../errors/configError";
import { ShippingRequestError } from "../errors/requestError";
import { ShippingResponseError } from "../errors/responseError";
import { createResponseSchema, type LiveSubscription, listResponseSchema } from "./apiSchemas";
import { type AuthScheme, AuthSchemeMemory, type AuthSchemeSetting, authorizationHeader } from "./authScheme";
import { HttpTransport, type TransportOptions, type TransportResponse } from "./httpTransport";

/** Options of a {@link ShippingClient}. */
export interface ShippingClientOptions extends TransportOptions {
  /** Base URL of the API, for example `https://api.example.com`; HTTPS unless loopback. */
  readonly baseUrl: string;
  /** The shop's API key; sent base64-encoded, never logged. */
  readonly apiKey: string;
  /** Scheme word of the Authorization header; default `auto`. */
  readonly authScheme?: AuthSchemeSetting;
  /** Where `auto` keeps the word each API accepted, shared by clients of one deployment; default: its own. */
  readonly schemeMemory?: AuthSchemeMemory;
}

/** A subscription to create. */
export interface NewSubscription {
  readonly hook: string;
  readonly url: string;
}

const LOOPBACK_HOSTS = new Set(["localhost", "[::1]", "::1"]);

/** True for `localhost`, `::1` and 127.0.0.0/8. */
function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Checks a base URL: absolute, no credentials, HTTPS unless loopback. Returns it without a trailing slash. */
export function validateBaseUrl(baseUrl: string, setting = "shipping:baseUrl"): string {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new ShippingConfigError(
      setting,
      `"${baseUrl}" is not an absolute URL; use for example https://api.example.com`,
    );
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw new ShippingConfigError(
      setting,
      "must not contain credentials; set the API key with shipping:apiKey",
    );
  }
  if (parsed.protocol === "http:" && !isLoopbackHost(parsed.hostname)) {
    throw new ShippingConfigError(
      setting,
      `"${parsed.origin}" must use HTTPS (plain HTTP is only allowed to a loopback simulator such as http://127.0.0.1:4010)`,
    );
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new ShippingConfigError(setting, `"${parsed.origin}" must be an https:// URL`);
  }
  if (parsed.search !== "" || parsed.hash !== "") {
    throw new ShippingConfigError(setting, "must not have a query or fragment");
  }
  return parsed.href.replace(/\/+$/, "");
}

/**
 * The webhook-subscription endpoints of the Shipping Service API. Knows HTTP, nothing of Pulumi.
 * The key lives in a private field: it is not enumerable, not serialized and not printed by `inspect`.
 */
export class ShippingClient {
  /** Base URL without trailing slash. */
  readonly baseUrl: string;
  readonly #origin: string;
  readonly #apiKey: string;
  readonly #authScheme: AuthSchemeSetting;
  readonly #schemes: AuthSchemeMemory;
  readonly #transport: HttpTransport;

  constructor(options: ShippingClientOptions) {
    this.baseUrl = validateBaseUrl(options.baseUrl);
    this.#origin = new URL(this.baseUrl).origin;
    if (options.apiKey.trim() === "") {
      throw new ShippingConfigError(
        "shipping:apiKey",
        "is empty; set it with `pulumi config set --secret shipping:apiKey <key>`",
      );
    }
    this.#apiKey = options.apiKey;
    this.#authScheme = options.authScheme ?? "auto";
    this.#schemes = options.schemeMemory ?? new AuthSchemeMemory();
    this.#transport = new HttpTransport(options);
  }

  /** `GET /`: the service title and status; needs no credentials. */
  async status(): Promise<{ title: string; status: string }> {
    const response = await this.#transport.send("GET", `${this.baseUrl}/`, this.#headers(undefined));
    const body = response.body as { title?: unknown; status?: unknown } | undefined;
    return { title: String(body?.title ?? ""), status: String(body?.status ?? "") };
  }

  /**
   * Lists the shop's subscriptions: all of them, or only `ids` (ids joined with `;`). Ids the shop does not
   * have are left out. The spec does not say what the service answers when only some ids of a list are
   * unknown; when it answers 404 for the whole list, each id is asked for on its own.
   */
  async list(ids?: readonly number[]): Promise<LiveSubscription[]> {
    if (ids !== undefined && ids.length === 0) return [];
    if (ids === undefined) return this.#get("/webhook_subscriptions/");
    try {
      return await this.#get(`/webhook_subscriptions/${ids.join(";")}`);
    } catch (error) {
      if (!(error instanceof ShippingRequestError && error.status === 404)) throw error;
      if (ids.length === 1) return [];
      const each = await Promise.all(ids.map((id) => this.list([id])));
      return each.flat();
    }
  }

  async #get(path: string): Promise<LiveSubscription[]> {
    const response = await this.#send("GET", path);
    const parsed = listResponseSchema.safeParse(response.body);
    if (!parsed.success) {
      throw new ShippingResponseError(
        response.request,
        response,
        `expected {"data":{"webhook_subscriptions":[{id,hook,url}]}}: ${parsed.error.message}`,
      );
    }
    return parsed.data.data.webhook_subscriptions.map(({ id, hook, url, shop_id, account_id }) => ({
      id,
      hook,
      url,
      ...(shop_id !== undefined ? { shopId: String(shop_id) } : {}),
      ...(account_id !== undefined ? { accountId: String(account_id) } : {}),
    }));
  }

  /**
   * Creates (or, for a hook the shop already has, overwrites) subscriptions; returns their ids in request
   * order. Safe to retry: the service keeps one subscription per hook.
   */
  async create(subscriptions: readonly NewSubscription[]): Promise<number[]> {
    const body = JSON.stringify({
      data: { webhook_subscriptions: subscriptions.map(({ hook, url }) => ({ hook, url })) },
    });
    const response = await this.#send("POST", "/webhook_subscriptions", body);
    const parsed = createResponseSchema.safeParse(response.body);
    if (!parsed.success || parsed.data.data.ids.length !== subscriptions.length) {
      throw new ShippingResponseError(
        response.request,
        response,
        `expected {"data":{"ids":[{"id":N}]}} with ${subscriptions.length} id(s)${parsed.success ? "" : `: ${parsed.error.message}`}`,
      );
    }
    return parsed.data.data.ids.map(({ id }) => id);
  }

  /**
   * Deletes subscriptions by id in one request. A 404 (an id that does not exist; depending on the service,
   * only some of them or all) is thrown to the caller.
   */
  async delete(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#send("DELETE", `/webhook_subscriptions/${ids.join(";")}`, undefined);
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  #headers(scheme: AuthScheme | undefined, method?: string): Record<string, string> {
    const headers: Record<string, string> = { "user-agent": USER_AGENT, accept: "application/json" };
    if (scheme !== undefined) headers.authorization = authorizationHeader(scheme, this.#apiKey);
    if (method === "POST" || method === "DELETE") headers["content-type"] = JSON_CONTENT_TYPE;
    return headers;
  }

  /** Sends with the Authorization scheme policy: one retry with another word on a 401 under `auto`. */
  async #send(method: "GET" | "POST" | "DELETE", path: string, body?: string): Promise<TransportResponse> {
    const url = `${this.baseUrl}${path}`;
    const scheme = this.#schemes.initial(this.#authScheme, this.#origin);
    try {
      const response = await this.#transport.send(method, url, this.#headers(scheme, method), body);
      this.#schemes.remember(this.#authScheme, this.#origin, scheme);
      return response;
    } catch (error) {
      if (!(error instanceof ShippingRequestError) || error.status !== 401) throw error;
      const other = this.#schemes.fallback(this.#authScheme, this.#origin, scheme);
      if (other === undefined) throw error;
      const response = await this.#transport.send(method, url, this.#headers(other, method), body);
      this.#schemes.remember(this.#authScheme, this.#origin, other);
      return response;
    }
  }
}
