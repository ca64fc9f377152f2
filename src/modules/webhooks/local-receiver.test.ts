import { describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { bearer, type Harness, json, makeKey, type TestTenant } from "../../test-support/harness.js";

/**
 * A developer's first webhook points at their own machine (issue 21, point 3): the refusal says which setting
 * lets the server reach it, in the caller's language, and with that setting the same URL is accepted.
 */
const LOCAL = "http://127.0.0.1:4000/hook";

async function subscribe(h: Harness, t: TestTenant, language = "en-US") {
  return h.inject({
    method: "POST",
    url: "/api/institution/webhooks",
    headers: { host: t.host, ...json, ...bearer(await makeKey(h, t, [])), "accept-language": language },
    payload: { url: LOCAL, eventTypes: ["user_created"] },
  });
}

describe("a local receiver", () => {
  const { h, tenants } = useApi({ tenants: 1 });
  const [t] = tenants;

  it.each(["en-US", "pt-BR", "es-ES", "fr-FR"])(
    "is refused by default with a message naming OUTBOUND_ALLOW_CIDRS (%s)",
    async (language) => {
      const res = await subscribe(h, t, language);
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.error).toBe("validation_failed");
      expect(body.details).toEqual([
        { field: "url", message: expect.stringContaining("OUTBOUND_ALLOW_CIDRS") },
      ]);
      expect(res.headers["content-language"]).toBe(language);
    },
  );
});

describe("a local receiver with its range in OUTBOUND_ALLOW_CIDRS", () => {
  const { h, tenants } = useApi({ env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.1/32" }, tenants: 1 });
  const [t] = tenants;

  it("is accepted", async () => {
    const res = await subscribe(h, t);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().url).toBe(LOCAL);
  });
});
