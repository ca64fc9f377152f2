/**
 * `security.allowedEmailDomains` restricts every path that adds a user or an address: user creation, bulk
 * creation, e-mail changes, invitations and their acceptance. Existing users are kept.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { invites, users } from "../../db/schema/index.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { adminCookie, json, makeTenant, makeUser } from "../../test-support/harness.js";
import { updateSettings } from "./service.js";

const { h, tenants } = useApi({ env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 100 }) }, tenants: 1 });
const [t] = tenants;
let cookie: string;

beforeAll(async () => {
  cookie = await adminCookie(h, t);
  await updateSettings(
    h.database.db,
    t.id,
    { kind: "system" },
    {
      security: { allowedEmailDomains: ["escola.edu.br", "staff.escola.edu.br"] },
    },
  );
});

const send = callerFor(h, () => ({ tenant: t, credential: cookie }), WHOLE_PATHS);

const userCount = async (email: string) =>
  (
    await h.database.db
      .select()
      .from(users)
      .where(and(eq(users.tenantId, t.id), eq(users.email, email)))
  ).length;

const refusal = (field: string) => ({
  error: "validation_failed",
  details: [
    {
      field,
      message: "The institution only admits e-mail addresses at: escola.edu.br, staff.escola.edu.br.",
    },
  ],
});

describe("allowed e-mail domains", () => {
  it("user creation: another domain, or a subdomain not listed, is 400 naming email; a listed one in any case is created", async () => {
    for (const email of ["ana@gmail.com", "ana@alunos.escola.edu.br", "ana@escola.edu.br.evil.com"]) {
      const res = await send("POST", "/api/institution/users", { name: "Ana", email, role: "student" });
      expect(res.statusCode, email).toBe(400);
      expect(res.json()).toMatchObject(refusal("email"));
      expect(await userCount(email)).toBe(0);
    }
    const ok = await send("POST", "/api/institution/users", {
      name: "Ana",
      email: "Ana@Escola.EDU.br",
      role: "student",
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const staff = await send("POST", "/api/institution/users", {
      name: "Bia",
      email: "bia@staff.escola.edu.br",
      role: "teacher",
    });
    expect(staff.statusCode).toBe(201);
  });

  it("bulk creation fails the items outside the domains, naming items[i].email, and creates the rest", async () => {
    const res = await send("POST", "/api/institution/users/bulk", {
      items: [
        { name: "Caio", email: "caio@escola.edu.br", role: "student" },
        { name: "Duda", email: "duda@hotmail.com", role: "student" },
      ],
    });
    expect(res.statusCode).toBe(200);
    const [created, refused] = res.json().results;
    expect(created).toMatchObject({ index: 0, status: "created" });
    expect(refused).toMatchObject({ index: 1, status: "failed", error: refusal("items[1].email") });
    expect(res.json().summary).toMatchObject({ created: 1, failed: 1 });
    expect(await userCount("duda@hotmail.com")).toBe(0);
  });

  it("an e-mail change to another domain is refused; other changes of a user outside the domains are not", async () => {
    // Created before the rule (directly, as the CLI would have): kept, and still editable.
    const outsider = await h.database.db
      .insert(users)
      .values({ tenantId: t.id, name: "Old", email: "old@legacy.org", role: "student" })
      .returning({ id: users.id });
    const id = outsider[0]?.id as string;
    const rename = await send("PATCH", `/api/institution/users/${id}`, {
      name: "Old Timer",
      email: "OLD@legacy.org",
    });
    expect(rename.statusCode, rename.body).toBe(200);
    const move = await send("PATCH", `/api/institution/users/${id}`, { email: "old@elsewhere.org" });
    expect(move.statusCode).toBe(400);
    expect(move.json()).toMatchObject(refusal("email"));
    const fine = await send("PATCH", `/api/institution/users/${id}`, { email: "old@escola.edu.br" });
    expect(fine.statusCode).toBe(200);
  });

  it("invitations to another domain are refused; one issued before the rule cannot be accepted after it", async () => {
    const res = await send("POST", "/api/institution/invites", { email: "eva@gmail.com" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject(refusal("email"));
    expect(
      await h.database.db
        .select()
        .from(invites)
        .where(and(eq(invites.tenantId, t.id), eq(invites.email, "eva@gmail.com"))),
    ).toEqual([]);

    const open = await makeTenant(h);
    const openCookie = await adminCookie(h, open);
    const issued = await h.inject({
      method: "POST",
      url: "/api/institution/invites",
      headers: { host: open.host, cookie: openCookie, ...json },
      payload: { email: "fabio@gmail.com", name: "Fábio" },
    });
    expect(issued.statusCode, issued.body).toBe(201);
    await updateSettings(
      h.database.db,
      open.id,
      { kind: "system" },
      { security: { allowedEmailDomains: ["escola.edu.br"] } },
    );
    const accepted = await h.inject({
      method: "POST",
      url: "/api/invites/accept",
      headers: { host: open.host, ...json },
      payload: { token: issued.json().token, password: "uma senha longa e boa" },
    });
    expect(accepted.statusCode).toBe(400);
    expect(accepted.json().details[0].field).toBe("email");
    expect(
      await h.database.db
        .select()
        .from(users)
        .where(and(eq(users.tenantId, open.id), eq(users.email, "fabio@gmail.com"))),
    ).toEqual([]);
  });

  it("an empty list admits every address", async () => {
    const other = await makeTenant(h);
    expect((await makeUser(h, other, "student")).email).toMatch(/\.test$/);
  });
});
