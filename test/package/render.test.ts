import { describe, expect, it } from "vitest";
import { inventory, renderStackYaml, renderTypeScript } from "../../provider/cli/render";

const context = {
  command: "pulumi-shipping-webhooks export",
  baseUrl: "https://api.example.com",
  shop: "acme",
};

describe("export rendering", () => {
  it("skips what the provider's check would refuse, with the reason, and adopts the rest in hook order", () => {
    const items = inventory([
      { id: 9, hook: "parcel_lost", url: "https://hooks.example.com/p" },
      { id: 7, hook: "order_status_change", url: "http://hooks.example.com/o" },
      { id: 3, hook: "shipment_status_change", url: "https://hooks.example.com/s" },
      { id: 4, hook: "shipment_status_change", url: "https://hooks.example.com/s2" },
    ]);
    expect(items.adoptable).toEqual([
      { id: 3, hook: "shipment_status_change", url: "https://hooks.example.com/s" },
    ]);
    expect(items.skipped.map((s) => [s.subscription.id, s.reason])).toEqual([
      [4, "the shop has another subscription of this hook (listed above)"],
      [7, expect.stringContaining("must use HTTPS")],
      [9, expect.stringContaining("not a hook this version knows")],
    ]);
    const ts = renderTypeScript(items, context);
    expect(ts).toContain('// Skipped subscription 9 ("parcel_lost" -> "https://hooks.example.com/p")');
    expect(ts).toContain('  shop: "acme",');
  });

  it("quotes every value, so a quote or a newline in a URL cannot break out of the string", () => {
    const items = {
      adoptable: [{ id: 1, hook: "order_status_change" as const, url: 'https://h.example.com/a"b\nc' }],
      skipped: [],
    };
    expect(renderTypeScript(items, context)).toContain('url: "https://h.example.com/a\\"b\\nc",');
    expect(renderStackYaml(items, context, "p")).toContain(
      '    order_status_change: "https://h.example.com/a\\"b\\nc"',
    );
  });
});
