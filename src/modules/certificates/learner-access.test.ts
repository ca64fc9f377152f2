import { beforeAll, describe, expect, it } from "vitest";
import { MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import {
  makeKey,
  roleCookie,
  type SignedInUser,
  signedInUser,
  type TestTenant,
} from "../../test-support/harness.js";

const { h, tenants, call } = useApi({ tenants: 2, env: MANY_STUDENTS });
const [a, b] = tenants as [TestTenant, TestTenant];
let keyA: string;
let keyB: string;

beforeAll(async () => {
  keyA = await makeKey(h, a, ["courses:read", "courses:write"]);
  keyB = await makeKey(h, b, ["courses:read", "courses:write"]);
});

/** A certificate issued by hand to the user, in a new course of the tenant. */
async function issued(t: TestTenant, key: string, userId: string): Promise<string> {
  const template = await call(t, key, "POST", "/certificate-templates", {
    name: "Conclusão",
    layout: { title: "Certificado", body: "{{student.name}} concluiu {{course.title}}." },
  });
  const { courseId } = await makeCourse(h.database.db, t.id);
  await enrollDirectly(h.database.db, t.id, userId, courseId);
  const res = await call(t, key, "POST", "/certificates", {
    templateId: template.json().id,
    userId,
    courseId,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

describe("a student's own certificates", () => {
  let me: SignedInUser;
  let other: SignedInUser;
  let mine: string;
  let theirs: string;
  beforeAll(async () => {
    me = await signedInUser(h, a, "student");
    other = await signedInUser(h, a, "student");
    mine = await issued(a, keyA, me.id);
    theirs = await issued(a, keyA, other.id);
  });

  it("lists only its own, whatever userId it asks for", async () => {
    const own = await call(a, me.cookie, "GET", "/certificates");
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().data.map((c: { id: string }) => c.id)).toEqual([mine]);
    expect(own.json().pagination.total).toBe(1);
    const asked = await call(a, me.cookie, "GET", `/certificates?userId=${other.id}`);
    expect(asked.json()).toMatchObject({ data: [], pagination: { total: 0 } });
    const self = await call(a, me.cookie, "GET", `/certificates?userId=${me.id.toUpperCase()}`);
    expect(self.json().data.map((c: { id: string }) => c.id)).toEqual([mine]);
  });

  it("reads its own certificate and PDF; another's is 404 like an unknown one", async () => {
    expect((await call(a, me.cookie, "GET", `/certificates/${mine}`)).json().id).toBe(mine);
    const pdf = await call(a, me.cookie, "GET", `/certificates/${mine}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    for (const url of [`/certificates/${theirs}`, `/certificates/${theirs}/pdf`]) {
      const res = await call(a, me.cookie, "GET", url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe("not_found");
    }
  });

  it("may not issue or revoke", async () => {
    const revoke = await call(a, me.cookie, "POST", `/certificates/${mine}/revoke`, { reason: "no" });
    expect(revoke.statusCode).toBe(403);
  });

  it("staff still read every certificate", async () => {
    const teacher = await roleCookie(h, a, "teacher");
    const list = await call(a, teacher, "GET", `/certificates?userId=${other.id}`);
    expect(list.json().data.map((c: { id: string }) => c.id)).toEqual([theirs]);
    expect((await call(a, keyA, "GET", `/certificates/${theirs}/pdf`)).statusCode).toBe(200);
  });

  it("another institution's certificate is 404 to a student, and its student sees none of ours", async () => {
    const foreign = await signedInUser(h, b, "student");
    const foreignId = await issued(b, keyB, foreign.id);
    expect((await call(a, me.cookie, "GET", `/certificates/${foreignId}`)).statusCode).toBe(404);
    expect((await call(b, foreign.cookie, "GET", `/certificates/${mine}`)).statusCode).toBe(404);
    expect((await call(b, foreign.cookie, "GET", `/certificates/${mine}/pdf`)).statusCode).toBe(404);
  });
});
