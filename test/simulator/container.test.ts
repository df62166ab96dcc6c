/**
 * Issue 36 item 4: the simulator's Dockerfile and the GitHub Actions service-container example, checked as far
 * as a machine without a Docker daemon allows (the image itself is not built here): the image's command is
 * one the CLI accepts and that exposes it as the service name; its runtime stage holds every module the
 * built simulator loads; it runs as a non-root user on the Node major package.json's engines names; and the
 * workflow's service is the name the image answers. actionlint checks the workflow (`npm run lint:workflows`).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseCli } from "../../simulator/cliArgs";
import { ROOT } from "./simProcess";

const DOCKERFILE = readFileSync(join(ROOT, "simulator", "Dockerfile"), "utf8");
/** The Dockerfile's instructions (continuation lines joined, comments dropped). */
const INSTRUCTIONS = DOCKERFILE.replace(/\\\n\s*/g, " ")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "" && !line.startsWith("#"));
const WORKFLOW = parse(
  readFileSync(join(ROOT, "examples", "receiver", ".github", "workflows", "simulator-service.yml"), "utf8"),
) as { jobs: Record<string, { services?: Record<string, { image: string }>; env?: Record<string, string> }> };

const instruction = (name: string): string[] =>
  INSTRUCTIONS.filter((line) => line.startsWith(`${name} `)).map((line) => line.slice(name.length + 1));
/** The last stage: what the image runs. */
const RUNTIME = INSTRUCTIONS.slice(INSTRUCTIONS.map((line) => line.startsWith("FROM ")).lastIndexOf(true));
const jsonArgs = (text: string | undefined): string[] => JSON.parse(text ?? "[]") as string[];
const command = jsonArgs(instruction("CMD").at(-1));

describe("simulator/Dockerfile", () => {
  it("its default command is one the CLI accepts: exposed on 0.0.0.0:4010, answering Host sim", () => {
    expect(jsonArgs(instruction("ENTRYPOINT").at(-1))).toEqual(["node", "dist/simulator/cli.js"]);
    const parsed = parseCli(command);
    expect(parsed).toMatchObject({ help: false, options: { expose: true, host: "0.0.0.0", port: 4010 } });
    expect(parsed.help === false && parsed.options.allowedHosts).toEqual(["sim"]);
    expect(instruction("EXPOSE")).toEqual(["4010"]);
    expect(instruction("HEALTHCHECK").join(" ")).toContain("http://127.0.0.1:4010/");
  });

  it("runs as a non-root user, on the Node major of package.json's engines", () => {
    const engines = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).engines.node as string;
    const major = /\d+/.exec(engines)?.[0];
    for (const from of instruction("FROM")) expect(from).toMatch(new RegExp(`^node:${major}-`));
    expect(RUNTIME.some((line) => line === "USER node")).toBe(true);
  });

  it("its runtime stage holds every module the built simulator loads (dist/simulator, dist/contract, dependencies)", () => {
    const copied = RUNTIME.filter((line) => line.startsWith("COPY --from=build ")).map(
      (line) => line.split(" ")[2],
    );
    expect(copied).toEqual(["/src/dist/simulator", "/src/dist/contract"]);
    const dependencies = Object.keys(
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).dependencies,
    );
    const outside = new Set<string>();
    for (const folder of ["simulator", "contract"]) {
      const dir = join(ROOT, "dist", folder);
      expect(existsSync(dir), "run npm run build first").toBe(true);
      for (const file of readdirSync(dir).filter((name) => name.endsWith(".js"))) {
        for (const [, spec = ""] of readFileSync(join(dir, file), "utf8").matchAll(/require\("([^"]+)"\)/g)) {
          const inImage =
            spec.startsWith("./") ||
            spec.startsWith("../contract/") ||
            builtinModules.includes(spec.replace(/^node:/, "")) ||
            dependencies.includes(spec);
          if (!inImage) outside.add(`${folder}/${file}: ${spec}`);
        }
      }
    }
    expect([...outside]).toEqual([]);
  });
});

describe("the service-container workflow example", () => {
  it("names its service sim, the Host the image answers, and points SHIPPING_SIM_URL at it", () => {
    const job = WORKFLOW.jobs["receiver-tests"];
    expect(Object.keys(job?.services ?? {})).toEqual(["sim"]);
    expect(job?.env?.SHIPPING_SIM_URL).toBe("http://sim:4010");
    expect(command[command.indexOf("--allow-host") + 1]).toBe("sim");
  });
});
