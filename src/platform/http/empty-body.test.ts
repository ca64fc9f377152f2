import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { callApi, type Method, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { makeKey } from "../../test-support/harness.js";

/**
 * `Content-Type: application/json` with no body, as many clients send on an action (issue 21, point 5): it is no
 * body, not malformed JSON. A route that takes none proceeds; one that needs fields names each as required.
 */
const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let key: string;
beforeAll(async () => {
  key = await makeKey(h, t, []);
});

const send = (method: Method, url: string, payload: string) =>
  callApi(h, t, key, method, url, payload, WHOLE_PATHS);

describe("an empty JSON body", () => {
  it.each(["", "  \n"])("on a route that needs fields names each one as required (%j)", async (payload) => {
    const res = await send("POST", "/api/institution/courses", payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: "validation_failed",
      message: expect.any(String),
      details: [{ field: "title", message: "This field is required." }],
    });
  });

  it.each([
    ["an action that takes no body", `/api/institution/live-classes/${randomUUID()}/start`],
    ["an action whose body is optional", `/api/institution/automations/${randomUUID()}/test`],
  ])("on %s gets past the body to the handler", async (_, url) => {
    const res = await send("POST", url, "");
    // Unknown ids: the request reached the handler.
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().error).toBe("not_found");
  });

  it("differs from a body of null, which is one of the wrong type", async () => {
    const res = await send("POST", "/api/institution/courses", "null");
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: "body", message: expect.any(String) }]);
  });

  it("is not mistaken for malformed JSON, which still is invalid_json", async () => {
    const res = await send("POST", "/api/institution/courses", '{"title": ');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("invalid_json");
  });
});
