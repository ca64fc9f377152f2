/**
 * `npm pack` of sdk/ makes a package that installs on its own (no dependencies, nothing of the server), whose
 * types compile an integrator's program under `tsc --strict`, and which runs: the typed scenario of
 * sdk/examples/scenario.ts (list, create, automation, enroll, delete) against the app listening on a port, with
 * the automation's delivery verified by the installed package's webhook helper.
 */
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOnce } from "../../src/modules/outbox/drain.js";
import { createOutboundClient } from "../../src/platform/outbound/client.js";
import { useApi } from "../../src/test-support/api.js";
import { makeKey } from "../../src/test-support/harness.js";
import { type Receiver, startReceiver } from "../../src/test-support/receiver.js";
import type { ScenarioHooks, ScenarioResult } from "../examples/scenario.js";
import type { AulaOptions } from "../src/index.js";
import { listen, localFetch, originOf } from "./live.js";

const run = promisify(execFile);
const SDK = fileURLToPath(new URL("..", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

/** An integrator's compiler settings: strict, and nothing of this repository's. */
const STRICT_TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    outDir: "out",
  },
  files: ["scenario.ts"],
};

interface PackedFile {
  path: string;
}

const { h, tenants } = useApi({ tenants: 1, env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" } });
const [t] = tenants;
let work: string;
let receiver: Receiver;
let files: string[];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "aula-sdk-"));
  receiver = await startReceiver();
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", work], { cwd: SDK });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf("["))) as {
    filename: string;
    files: PackedFile[];
  }[];
  if (packed === undefined) throw new Error("npm pack printed nothing");
  files = packed.files.map((f) => f.path).sort();
  const project = join(work, "project");
  await run("mkdir", ["-p", project]);
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "integrator", private: true, type: "module" }),
  );
  await run("npm", ["install", "--offline", "--no-audit", "--no-fund", join(work, packed.filename)], {
    cwd: project,
  });
  await copyFile(join(SDK, "examples", "scenario.ts"), join(project, "scenario.ts"));
  await writeFile(join(project, "tsconfig.json"), JSON.stringify(STRICT_TSCONFIG));
}, 180_000);
afterAll(async () => {
  await receiver?.close();
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

describe("the packed SDK", () => {
  it("holds the built code, its types and the README, and nothing else", () => {
    expect(files).toContain("package.json");
    expect(files).toContain("README.md");
    for (const file of ["index", "client", "transport", "pages", "errors", "webhooks", "generated/openapi"]) {
      expect(files).toContain(`dist/${file}.js`);
      expect(files).toContain(`dist/${file}.d.ts`);
    }
    expect(files.filter((f) => !f.startsWith("dist/") && f !== "package.json" && f !== "README.md")).toEqual(
      [],
    );
  });

  it("compiles the typed scenario with tsc --strict and runs it against a live server", async () => {
    const project = join(work, "project");
    await run(process.execPath, [TSC, "-p", project], { cwd: project });

    const apiKey = await makeKey(h, t, []);
    const options: AulaOptions = { baseUrl: originOf(t, await listen(h)), apiKey, fetch: localFetch };
    const installed = pathToFileURL(join(project, "node_modules", "@aula", "sdk", "dist", "index.js")).href;
    const sdk = (await import(installed)) as typeof import("../src/index.js");
    const hooks: ScenarioHooks = {
      afterEnroll: async (secret) => {
        const client = createOutboundClient(h.config.outbound);
        while ((await drainOnce(h.ctx, client, { tenantIds: [t.id] })).claimed > 0) {}
        const delivery = receiver.received.at(-1);
        if (delivery === undefined) return undefined;
        const event = await sdk.verifyWebhook(delivery.body, delivery.headers, secret);
        return event.type === "enrollment_created" ? event : undefined;
      },
    };
    const compiled = pathToFileURL(join(project, "out", "scenario.js")).href;
    const { scenario } = (await import(compiled)) as {
      scenario: (o: AulaOptions, url: string, hooks: ScenarioHooks) => Promise<ScenarioResult>;
    };
    const result = await scenario(options, receiver.url("/scenario"), hooks);
    expect(result.coursesBefore).toBe(0);
    expect(result.announced?.data).toMatchObject({
      enrollmentId: result.enrollmentId,
      courseId: result.courseId,
      userId: result.studentId,
    });
  });
});
