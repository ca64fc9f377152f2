/**
 * Input that JSON Schema formats admit but PostgreSQL refuses must be a 400 with the field named, never a 500:
 * `urn:uuid:` ids, years before 1000 and leap seconds, Infinity, integers past the column, pages past bigint
 * offsets, and U+0000 in text.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { callApi, type Method, useApi } from "../../test-support/api.js";
import { makeKey } from "../../test-support/harness.js";

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let key: string;

beforeAll(async () => {
  key = await makeKey(h, t, []);
});

const send = (method: Method, url: string, payload?: string) =>
  callApi(h, t, key, method, url, payload, { language: null });

async function refused(res: Awaited<ReturnType<typeof send>>, field: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().error).toBe("validation_failed");
  expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
}

describe("input PostgreSQL would refuse", () => {
  it("refuses a urn:uuid id, in a body and in a query", async () => {
    const urn = `urn:uuid:${randomUUID()}`;
    await refused(
      await send("POST", "/enrollments", JSON.stringify({ userId: urn, courseId: randomUUID() })),
      "userId",
    );
    await refused(await send("GET", `/enrollments?courseId=${urn}`), "courseId");
  });

  it("refuses years before 1000 and leap seconds", async () => {
    await refused(await send("GET", "/users?createdSince=0000-01-01T00:00:00Z"), "createdSince");
    const leap = JSON.stringify({ email: "leap@example.com", expiresAt: "2027-12-31T23:59:60Z" });
    await refused(await send("POST", "/invites", leap), "expiresAt");
    const bc = JSON.stringify({ name: "BC", startsAt: "0001-01-01T00:00:00+01:00" });
    await refused(await send("POST", "/classes", bc), "startsAt");
  });

  it("refuses Infinity and integers past the column", async () => {
    await refused(await send("POST", "/classes", '{"name": "x", "capacity": 1e400}'), "capacity");
    await refused(await send("POST", "/classes", '{"name": "x", "capacity": 2147483648}'), "capacity");
    await refused(await send("GET", "/courses?page=1000000000000000000"), "page");
  });

  it("refuses U+0000 in any text, naming the field", async () => {
    await refused(await send("POST", "/courses", JSON.stringify({ title: "a\u0000b" })), "title");
    const items = JSON.stringify({
      items: [
        { name: "ok", email: "ok@example.com", role: "student" },
        { name: "x\u0000", email: "x@example.com", role: "student" },
      ],
    });
    await refused(await send("POST", "/users/bulk", items), "items[1].name");
    await refused(await send("GET", "/courses?search=a%00b"), "search");
    const list = await send("GET", "/courses");
    expect(list.json().pagination.total).toBe(0);
  });
});
