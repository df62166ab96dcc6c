/**
 * The inline program of an explorer stack in either shape (model.ts, `ProgramShape`), the stack config a
 * program that reads its hooks from config needs, and the provider's environment for a declaration.
 */
import type * as pulumiSdk from "@pulumi/pulumi";
import type { ConfigMap, PulumiFn, Stack } from "@pulumi/pulumi/automation";
import type * as providerModule from "../../provider";
import { declaredUrl } from "./checks";
import { ALT_SHOP_ENTRY, SHOP_KEYS, type StackDecl } from "./model";
import { type Services, shopIdOf } from "./services";
import { PROJECT } from "./targets";

/** Short client limits, so a fault that outlasts the retries fails within seconds. */
const FAST_TIMEOUTS = { connectMs: 2_000, headersMs: 2_000, bodyMs: 2_000, deadlineMs: 15_000 };
const FAST_RETRY = { maxRetries: 3, baseDelayMs: 50, maxDelayMs: 400, maxRetryAfterMs: 5_000 };

/** The modules a program uses, loaded as the stacks' project would load them. */
interface ProgramModules {
  readonly pulumi: typeof pulumiSdk;
  readonly provider: typeof providerModule;
}

/**
 * The inline program of a stack declaring `declOf()` (read when the program runs). In code, one resource per
 * declaration with its options; from config, what examples/from-config does: `hooksFromConfig`, each resource
 * named by its hook, `<project>:shop` for all. One output per value (the engine marks secrecy per top-level
 * output only): id, url and previous.
 */
export function inlineProgram({ pulumi, provider }: ProgramModules, declOf: () => StackDecl): PulumiFn {
  return async () => {
    const outputs: Record<string, unknown> = {};
    const exportOf = (name: string, resource: providerModule.WebhookSubscription) => {
      outputs[`${name}-id`] = resource.id;
      outputs[`${name}-url`] = resource.url;
      outputs[`${name}-previous`] = resource.previous;
    };
    const decl = declOf();
    if (decl.shape === "config") {
      const config = new pulumi.Config();
      const shop = config.get("shop");
      for (const { hook, url } of provider.hooksFromConfig(config)) {
        exportOf(hook, new provider.WebhookSubscription(hook, { hook, url, ...(shop ? { shop } : {}) }));
      }
      return outputs;
    }
    for (const r of decl.resources) {
      const url = declaredUrl(r);
      const resource = new provider.WebhookSubscription(
        r.name,
        {
          hook: r.hook,
          url: r.secret ? pulumi.secret(url) : url,
          ...(r.shop === "alt" ? { shop: ALT_SHOP_ENTRY } : {}),
          ...(r.takeOver ? { takeOver: true } : {}),
        },
        {
          deleteBeforeReplace: r.deleteBeforeReplace,
          retainOnDelete: r.retainOnDelete,
          protect: r.protect,
          ...(r.ignoreUrl ? { ignoreChanges: ["url"] } : {}),
          ...(r.aliasOf !== undefined ? { aliases: [{ name: r.aliasOf }] } : {}),
        },
      );
      exportOf(r.name, resource);
    }
    return outputs;
  };
}

/**
 * The stack config a declaration needs: for a program that reads config, `<project>:hooks.<hook>` per
 * resource (set with `--path`, secret ones with `--secret`) and `<project>:shop` when its entry is not the
 * default shop; nothing for a program in code.
 */
export function stackConfigOf(decl: StackDecl): ConfigMap {
  if (decl.shape !== "config") return {};
  const config: ConfigMap = {};
  for (const r of decl.resources) {
    config[`${PROJECT}:hooks.${r.hook}`] = { value: declaredUrl(r), secret: r.secret };
  }
  if (decl.resources[0]?.shop === "alt") config[`${PROJECT}:shop`] = { value: ALT_SHOP_ENTRY, secret: false };
  return config;
}

/**
 * Makes the stack's config `wanted` when it is not `written` (what was set last): removes the keys set
 * before, then sets them all with `pulumi config set-all --path` (two CLI runs, only when it changed).
 * Answers what is now set.
 */
export async function syncStackConfig(
  stack: Stack,
  wanted: ConfigMap,
  written: ConfigMap,
): Promise<ConfigMap> {
  if (JSON.stringify(wanted) === JSON.stringify(written)) return written;
  const roots = [...new Set(Object.keys(written).map((key) => key.split(".")[0] as string))];
  if (roots.length > 0) await stack.removeAllConfig(roots);
  if (Object.keys(wanted).length > 0) await stack.setAllConfig(wanted, true);
  return wanted;
}

/** The provider's environment for a declaration: the default shop and the `alt` entry, short limits. */
export function providerEnv(services: Services, decl: StackDecl): Record<string, string> {
  const { default: main, alt } = decl.targets;
  return {
    SHIPPING_API_KEY: SHOP_KEYS[main.key].key,
    SHIPPING_BASE_URL: services.baseUrl(main),
    ...(main.pin !== undefined ? { SHIPPING_SHOP_ID: shopIdOf(main.pin) } : {}),
    SHIPPING_SHOPS: JSON.stringify({
      [ALT_SHOP_ENTRY]: {
        apiKey: SHOP_KEYS[alt.key].key,
        baseUrl: services.baseUrl(alt),
        ...(alt.pin !== undefined ? { shopId: shopIdOf(alt.pin) } : {}),
      },
    }),
    SHIPPING_TIMEOUTS: JSON.stringify(FAST_TIMEOUTS),
    SHIPPING_RETRY: JSON.stringify(FAST_RETRY),
  };
}
