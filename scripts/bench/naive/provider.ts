/**
 * The provider a user would write in an afternoon, kept as the benchmark's comparison (issue 15, goal 5):
 * an inline `pulumi.dynamic.ResourceProvider` with `fetch`, one API call per operation (POST one hook, GET
 * one id, DELETE one id) and the shop's API key captured in the closure. It is deliberately plain: no
 * batching, no adoption check, no retry, and the key lands in every resource's `__provider` in the state.
 * Not for use outside the benchmark.
 */
import * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link NaiveWebhook}. */
interface NaiveWebhookArgs {
  readonly hook: pulumi.Input<string>;
  readonly url: pulumi.Input<string>;
}

/** A provider for one shop: its API's base URL and key are captured, as a quick provider would do. */
export function naiveProvider(baseUrl: string, apiKey: string): pulumi.dynamic.ResourceProvider {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `bearer ${Buffer.from(apiKey).toString("base64")}`,
        "user-agent": "CustomApiCall/2",
        accept: "application/json",
        "content-type": "application/json; charset=utf-8",
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text === "" ? undefined : JSON.parse(text);
  };
  const post = async (hook: string, url: string) => {
    const answer = await call("POST", "/webhook_subscriptions", {
      data: { webhook_subscriptions: [{ hook, url }] },
    });
    return answer.data.ids[0].id as number;
  };
  return {
    async create(inputs) {
      const id = await post(inputs.hook, inputs.url);
      return { id: String(id), outs: { hook: inputs.hook, url: inputs.url } };
    },
    async read(id) {
      const answer = await call("GET", `/webhook_subscriptions/${id}`);
      const found = answer.data.webhook_subscriptions[0];
      return { id, props: { hook: found.hook, url: found.url } };
    },
    async diff(_id, olds, news) {
      const replaces = olds.hook === news.hook ? [] : ["hook"];
      return { changes: olds.hook !== news.hook || olds.url !== news.url, replaces };
    },
    async update(_id, _olds, news) {
      await post(news.hook, news.url);
      return { outs: { hook: news.hook, url: news.url } };
    },
    async delete(id) {
      await call("DELETE", `/webhook_subscriptions/${id}`);
    },
  };
}

/** A webhook subscription managed by a {@link naiveProvider}. */
export class NaiveWebhook extends pulumi.dynamic.Resource {
  constructor(
    name: string,
    args: NaiveWebhookArgs,
    provider: pulumi.dynamic.ResourceProvider,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(provider, name, { hook: args.hook, url: args.url }, opts, "naive", "NaiveWebhook");
  }
}
