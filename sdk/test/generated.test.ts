/**
 * The SDK's generated sources are those of the document the server serves now: regenerated in memory from GET
 * /openapi.json and compared with sdk/src/generated/. When a route changes, this fails until
 * `npm run sdk:generate` is run and its output committed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { useApi } from "../../src/test-support/api.js";
import { GENERATED_FILES, generateSources, operationsOf } from "../codegen/generate.js";

const GENERATED = new URL("../src/generated/", import.meta.url);
const SOURCES = new URL("../src/", import.meta.url);

const { h } = useApi();

async function servedDocument(): Promise<Record<string, unknown>> {
  const res = await h.inject({ method: "GET", url: "/openapi.json" });
  expect(res.statusCode).toBe(200);
  return res.json() as Record<string, unknown>;
}

describe("the SDK's generated sources", () => {
  it("are what sdk:generate makes of the served document (run `npm run sdk:generate` if not)", async () => {
    const sources = await generateSources(await servedDocument());
    for (const file of GENERATED_FILES) {
      const onDisk = readFileSync(new URL(file, GENERATED), "utf8");
      // Compared by equality first: a 2 MB diff is no help; the file's name and the command are.
      expect(onDisk === sources[file], `sdk/src/generated/${file} is stale: run npm run sdk:generate`).toBe(
        true,
      );
    }
  });

  it("cover every operation of the document, each with an operationId, and every list", async () => {
    const document = await servedDocument();
    const operations = operationsOf(document);
    const counted = Object.values(document.paths as Record<string, Record<string, unknown>>).reduce(
      (n, item) =>
        n + Object.keys(item).filter((m) => ["get", "post", "put", "patch", "delete"].includes(m)).length,
      0,
    );
    expect(operations).toHaveLength(counted);
    expect(operations.length).toBeGreaterThan(300);
    const lists = operations.filter((o) => o.kind === "list").map((o) => o.id);
    expect(lists).toContain("users.list");
    expect(lists).toContain("courses.list");
    expect(lists.every((id) => id.endsWith(".list"))).toBe(true);
  });
});

describe("the SDK's sources", () => {
  it("import nothing from the server: only each other", () => {
    const files = readdirSync(SOURCES, { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".ts"),
    );
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = readFileSync(new URL(file, SOURCES), "utf8");
      const imports = [...text.matchAll(/\bfrom\s+"([^"]+)"/g)].map((m) => m[1] ?? "");
      for (const target of imports) {
        expect(target.startsWith("./") || target.startsWith("../"), `${file} imports ${target}`).toBe(true);
        if (target.startsWith("../")) expect(file.includes("/"), `${file} imports ${target}`).toBe(true);
      }
    }
  });
});
