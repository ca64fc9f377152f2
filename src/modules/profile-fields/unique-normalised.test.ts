/**
 * Issue 19, point 8: unique profile values compare after NFKC with invisible characters removed, so `Ｓ-1`
 * (full-width S), `S\u200b-1` (a zero-width space inside) and `S-1` are one value, while each is stored as typed.
 * Before, the key was only lowercased, and every look-alike below was a second, accepted holder of the value.
 */
import { readFileSync } from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { userProfileValues } from "../../db/schema/index.js";
import { callerFor, useApi } from "../../test-support/api.js";
import { adminCookie, makeUser } from "../../test-support/harness.js";
import { comparisonKey } from "./comparison-key.js";

const { h, tenants } = useApi({ env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 1000 }) }, tenants: 1 });
const [t] = tenants;
let cookie: string;
const call = callerFor(h, () => ({ tenant: t, credential: cookie }));

beforeAll(async () => {
  cookie = await adminCookie(h, t);
  const field = await call("POST", "/profile-fields", {
    key: "code",
    label: "Code",
    type: "text",
    unique: true,
  });
  expect(field.statusCode, field.body).toBe(201);
});

let n = 0;
const create = (code: string) => {
  n += 1;
  return call("POST", "/users", {
    name: `N${n}`,
    email: `n${n}@x.test`,
    role: "student",
    profileFields: { code },
  });
};
const fieldsOf = (res: { json(): { details?: { field: string }[] } }) =>
  (res.json().details ?? []).map((d) => d.field);
const rowsWithKey = (key: string) =>
  h.database.db
    .select()
    .from(userProfileValues)
    .where(and(eq(userProfileValues.tenantId, t.id), eq(userProfileValues.uniqueKey, key)));

describe("unique profile values compare normalised", () => {
  it("look-alikes of a held value are 409 naming the field; the value is stored and shown as typed", async () => {
    const first = await create("Ｓ-1");
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().profileFields).toEqual({ code: "Ｓ-1" });
    for (const lookAlike of [
      "S-1",
      "S\u200b-1",
      "s-1",
      "S\u00ad-1",
      "S\u2060-1",
      "\u202eS-1",
      "S-\ufeff1",
      " Ｓ-１ ",
    ]) {
      const res = await create(lookAlike);
      expect(res.statusCode, JSON.stringify(lookAlike)).toBe(409);
      expect(res.json().error).toBe("conflict");
      expect(fieldsOf(res)).toEqual(["profileFields.code"]);
    }
    const rows = await rowsWithKey("s-1");
    expect(rows.map((r) => r.value)).toEqual(["Ｓ-1"]);
    expect((await call("GET", `/users/${first.json().id}`)).json().profileFields).toEqual({ code: "Ｓ-1" });
    // Different text is still a different value.
    expect((await create("S-11")).statusCode).toBe(201);
  });

  it("an update to a look-alike is 409, and the users list finds a value by any of its look-alikes", async () => {
    const other = await create("T-2");
    expect(other.statusCode).toBe(201);
    const clash = await call("PATCH", `/users/${other.json().id}`, { profileFields: { code: "S\u200b-1" } });
    expect(clash.statusCode).toBe(409);
    expect(fieldsOf(clash)).toEqual(["profileFields.code"]);
    const found = await call("GET", `/users?profile.code=${encodeURIComponent("S-1")}`);
    expect(found.statusCode).toBe(200);
    expect(found.json().data.map((u: { profileFields: unknown }) => u.profileFields)).toEqual([
      { code: "Ｓ-1" },
    ]);
  });

  it("concurrent creations of look-alikes: exactly one succeeds, the others are 409", async () => {
    const results = await Promise.all([create("Ｓ-3"), create("S-3"), create("S\u200b-3")]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    expect(await rowsWithKey("s-3")).toHaveLength(1);
    const pair = await Promise.all([create("Ｕ-4"), create("U-4")]);
    expect(pair.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await rowsWithKey("u-4")).toHaveLength(1);
  });

  it("in a bulk creation a look-alike of an earlier item fails the later item", async () => {
    const res = await call("POST", "/users/bulk", {
      items: [
        { name: "B0", email: "bulk0@x.test", role: "student", profileFields: { code: "Ｖ-5" } },
        { name: "B1", email: "bulk1@x.test", role: "student", profileFields: { code: "V\u200c-5" } },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json().results as { status: string; error?: { error: string } }[];
    expect(results.map((r) => r.status)).toEqual(["created", "failed"]);
    expect(results[1]?.error?.error).toBe("conflict");
  });

  it("migration 0030 re-keys stored values as the app keys new ones, and keeps a pre-existing look-alike pair", async () => {
    const legacy = await call("POST", "/profile-fields", {
      key: "legacy",
      label: "Legacy",
      type: "text",
      unique: true,
    });
    const fieldId = legacy.json().id as string;
    const values = [
      "S-9",
      "Ｓ-9",
      "T\u200b-9",
      "ℌ𝐞𝐥𝐥𝐨",
      "a \u200b b",
      "ﬁle",
      "①",
      "Straße",
      "İstanbul",
      "ＡＢＣ",
    ];
    const owners: string[] = [];
    for (const value of values) {
      const user = await makeUser(h, t, "student");
      owners.push(user.id);
      // As the code before this change stored them: the key was only the lowercased text.
      await h.database.db.insert(userProfileValues).values({
        tenantId: t.id,
        userId: user.id,
        fieldId,
        value,
        matchKey: value.toLowerCase(),
        uniqueKey: value.toLowerCase(),
      });
    }
    const migration = readFileSync(
      new URL("../../db/migrations/0030_profile_values_normalised_keys.sql", import.meta.url),
      "utf8",
    );
    for (const statement of migration.split("--> statement-breakpoint")) {
      await h.database.db.execute(sql.raw(statement));
    }
    const rows = await h.database.db
      .select()
      .from(userProfileValues)
      .where(and(eq(userProfileValues.tenantId, t.id), eq(userProfileValues.fieldId, fieldId)));
    const byOwner = new Map(rows.map((r) => [r.userId, r]));
    values.forEach((value, i) => {
      const row = byOwner.get(owners[i] as string);
      expect(row?.value, value).toBe(value);
      expect(row?.matchKey, value).toBe(comparisonKey(value));
    });
    // `S-9` kept its key (unchanged by the migration); `Ｓ-9`, its look-alike, keeps the old one rather than fail.
    expect(byOwner.get(owners[0] as string)?.uniqueKey).toBe("s-9");
    expect(byOwner.get(owners[1] as string)?.uniqueKey).toBe("ｓ-9");
    expect(byOwner.get(owners[2] as string)?.uniqueKey).toBe("t-9");
    // The re-keyed values now hold their look-alikes off.
    for (const [value, taken] of [
      ["T-9", true],
      ["s\u200b-9", true],
      ["hello", true],
      ["file", true],
      ["1", true],
      ["abc", true],
      ["T-10", false],
    ] as const) {
      n += 1;
      const res = await call("POST", "/users", {
        name: `L${n}`,
        email: `l${n}@x.test`,
        role: "student",
        profileFields: { legacy: value },
      });
      expect(res.statusCode, value).toBe(taken ? 409 : 201);
    }
  });

  it("keys fold compatibility forms and drop every default-ignorable character", () => {
    expect(comparisonKey("Ｓ-1")).toBe("s-1");
    expect(comparisonKey("S\u200b-1")).toBe("s-1");
    expect(comparisonKey("a \u200b b")).toBe("a b");
    const ignorable = /\p{Default_Ignorable_Code_Point}/u;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (ignorable.test(ch)) expect(comparisonKey(`a${ch}b`), cp.toString(16)).toBe("ab");
    }
  });
});
