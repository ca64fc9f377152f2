import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { AppError } from "../platform/errors/app-error.js";
import type { App } from "../platform/http/types.js";
import { startHarness } from "./harness.js";

/** A documented test route that can answer as documented or not. */
function probe(app: App): void {
  app.get(
    "/api/probe/:mode",
    {
      config: { access: { kind: "public" } },
      schema: {
        tags: ["health"],
        params: Type.Object({ mode: Type.String() }),
        response: { 200: Type.Object({ ok: Type.Boolean() }, { additionalProperties: false }) },
      },
    },
    async (request, reply) => {
      const { mode } = request.params;
      // 409 is not among a public GET's statuses.
      if (mode === "conflict") throw new AppError("conflict");
      // A 404 envelope is documented (the path has a parameter).
      if (mode === "missing") throw new AppError("not_found");
      // A string passes Fastify's serializer untouched, so the body can break its schema.
      if (mode === "wrong")
        return reply.header("content-type", "application/json").send('{"ok":"yes"}' as never);
      return { ok: true };
    },
  );
}

describe("every harness checks its responses against the OpenAPI document", () => {
  it("fails close() listing undocumented statuses and bodies their schema refuses", async () => {
    const h = await startHarness({}, { routes: probe });
    expect((await h.inject({ method: "GET", url: "/api/probe/fine" })).statusCode).toBe(200);
    expect((await h.inject({ method: "GET", url: "/api/probe/missing" })).statusCode).toBe(404);
    expect((await h.inject({ method: "GET", url: "/api/probe/conflict" })).statusCode).toBe(409);
    expect((await h.inject({ method: "GET", url: "/api/probe/wrong" })).statusCode).toBe(200);
    const closing = h.close();
    await expect(closing).rejects.toThrow(/GET \/api\/probe\/:mode → 409: status not documented/);
    await expect(closing).rejects.toThrow(/GET \/api\/probe\/:mode → 200: body \{"ok":"yes"\} refused/);
    await expect(closing).rejects.not.toThrow(/→ 404/);
  });

  it("passes documented answers, error envelopes included, and leaves undocumented routes alone", async () => {
    const h = await startHarness({}, { routes: probe });
    expect((await h.inject({ method: "GET", url: "/api/probe/fine" })).statusCode).toBe(200);
    expect((await h.inject({ method: "GET", url: "/api/probe/missing" })).statusCode).toBe(404);
    // Not a route: the not-found handler answers, and no operation is there to check against.
    expect((await h.inject({ method: "GET", url: "/api/nowhere" })).statusCode).toBe(404);
    expect((await h.inject({ method: "GET", url: "/openapi.json" })).statusCode).toBe(200);
    await expect(h.close()).resolves.toBeUndefined();
  });
});
