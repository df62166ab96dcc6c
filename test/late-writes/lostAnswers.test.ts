/**
 * A POST the service applied whose answers are all lost, in a shop that then cannot be listed (issue 26,
 * item 3, its last variant): nobody can tell whether the write was applied. No hook is sent again alone; each
 * create fails saying what may be subscribed now and that `pulumi up` comes next; that `up` adopts what was
 * written with no write, and `destroy` then leaves nothing behind. Both overwrite modes, one and three hooks.
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { type Declaration, Stack } from "../support/engineOrder";
import { configOf, LABELS, ORDERS, QUICK_RETRY, SHIPMENTS, writes } from "../support/services";
import { ACME_KEY } from "../support/shops";

const acme = useAcmeSimulator();

const ONE: Declaration[] = [{ name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" }];
const THREE: Declaration[] = [
  ...ONE,
  { name: "labels", hook: LABELS, url: "https://hooks.example.com/l" },
  { name: "shipments", hook: SHIPMENTS, url: "https://hooks.example.com/s" },
];

describe.each(["new-id", "keep-id"] as const)("answers lost and the shop unlistable (%s)", (overwrite) => {
  it.each([
    ["one hook", ONE],
    ["three hooks", THREE],
  ])(
    "%s: up fails saying what may be live, the next up adopts it, destroy leaves nothing",
    async (_, declared) => {
      const sim = acme.withSwitches({ overwrite });
      const stack = new Stack(configOf(sim, ACME_KEY, QUICK_RETRY));
      sim.addFault({ kind: "drop-after-write", method: "POST" });
      sim.addFault({ kind: "status", status: 500, method: "GET", after: "POST" });
      const failed = await stack.up(declared);
      sim.clearFaults();

      expect(failed.ok).toBe(false);
      // The client's retries resend the whole POST (safe: the service overwrites per hook); no hook is sent
      // again alone, which would only hide that the outcome is unknown.
      const posts = sim.requests().filter((r) => r.method === "POST");
      expect(posts.length).toBeGreaterThan(0);
      for (const post of posts) {
        const sent = (post.body as { data: { webhook_subscriptions: unknown[] } }).data.webhook_subscriptions;
        expect(sent).toHaveLength(declared.length);
      }
      const live = sim.subscriptions("acme");
      expect(live.map((s) => s.hook).sort()).toEqual(declared.map((d) => d.hook).sort());
      expect(stack.recorded()).toEqual([]);
      const hooks = declared.map((d) => d.hook).join(", ");
      for (const error of failed.errors) {
        expect(error).toContain("The service may have applied it, and the default shop could not be listed");
        expect(error).toContain(`${hooks} may be subscribed now with no record in state`);
        expect(error).toContain(
          "Run `pulumi up` next (it adopts what it finds, with no write), not `pulumi destroy`",
        );
      }
      expect(failed.errors).toHaveLength(declared.length);

      sim.clearRequests();
      const adopted = await stack.up(declared);
      expect(adopted.ok).toBe(true);
      expect(writes(sim)).toEqual([]);
      expect(
        stack
          .recorded()
          .map((r) => Number(r.id))
          .sort(),
      ).toEqual(live.map((s) => s.id).sort());

      expect((await stack.destroy()).ok).toBe(true);
      expect(sim.subscriptions("acme")).toEqual([]);
    },
  );
});
