/**
 * `npm start` / `npm run preview` / `npm run destroy` (scripts/demo.ts): the root project (Pulumi.yaml, whose
 * program is `dist/index.js`) run by the CLI's Node.js language host, in a folder of its own with the same
 * Pulumi.yaml. Judged by the simulator's data file and the table the demo prints.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/engine";
import { freePort } from "../support/freePort";
import { runProcess } from "../support/process";

/** One demo run: build check, simulator start, one engine operation, on a loaded machine. */
const DEMO_DEADLINE_MS = 240_000;
const project = join(REPO_ROOT, ".tmp", "official", `demo-${randomBytes(4).toString("hex")}`);
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** The demo shop's subscriptions in the simulator's data file: hook -> [id, url]. */
function demoShop(): Record<string, [number, string]> {
  const data = JSON.parse(readFileSync(join(project, ".sim", "state.json"), "utf8")) as {
    shops: { demo: Array<{ id: number; hook: string; url: string }> };
  };
  return Object.fromEntries(data.shops.demo.map((s) => [s.hook, [s.id, s.url]]));
}

describe("the demo: the root project through the CLI's language host", () => {
  it("up deploys the three hooks of Pulumi.yaml, a second up changes nothing, destroy removes them", async () => {
    mkdirSync(project, { recursive: true });
    const settings = readFileSync(join(REPO_ROOT, "Pulumi.yaml"), "utf8");
    expect(settings).toMatch(/^main: dist\/index\.js$/m);
    const main = relative(project, join(REPO_ROOT, "dist", "index.js"));
    writeFileSync(join(project, "Pulumi.yaml"), settings.replace(/^main: .*$/m, `main: ${main}`));
    const env = {
      ...process.env,
      SHIPPING_DEMO_PROJECT: project,
      SHIPPING_DEMO_PORT: String(await freePort()),
    };
    const demo = (operation: string) =>
      runProcess(process.execPath, [join(REPO_ROOT, "dist", "scripts", "demo.js"), operation], {
        cwd: REPO_ROOT,
        env,
        deadlineMs: DEMO_DEADLINE_MS,
      });

    const up = await demo("up");
    expect(up.status, up.stdout + up.stderr).toBe(0);
    const deployed = demoShop();
    expect(Object.fromEntries(Object.entries(deployed).map(([hook, [, url]]) => [hook, url]))).toEqual({
      shipment_status_change: "https://hooks.example.com/demo/shipments",
      shipment_label_created: "https://hooks.example.com/demo/labels",
      order_status_change: "https://hooks.example.com/demo/orders",
    });
    expect(up.stdout).toMatch(/\| order_status_change\s+\| https:\/\/hooks\.example\.com\/demo\/orders/);

    const again = await demo("up");
    expect(again.status, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toMatch(/4 unchanged/);
    expect(demoShop()).toEqual(deployed);

    const destroy = await demo("destroy");
    expect(destroy.status, destroy.stdout + destroy.stderr).toBe(0);
    expect(demoShop()).toEqual({});
    expect(destroy.stdout).toContain("The demo shop has no webhook subscriptions.");
  });
});
