import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { enrollments, tenants } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { makeCourse } from "../../test-support/catalogue.js";
import { bearer, json, makeKey, makeTenant, makeUser, type TestTenant } from "../../test-support/harness.js";

/**
 * The plan's student limit counts every user who is a `student` or holds a current student enrollment: enrolling
 * staff as students is no side door around it, on any path that makes or revives such an enrollment.
 */
const LIMIT = 3;
const { h } = useApi({ env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: LIMIT }) } });

interface Setup {
  t: TestTenant;
  key: string;
  courseId: string;
  otherCourseId: string;
}

async function setup(): Promise<Setup> {
  const t = await makeTenant(h);
  const key = await makeKey(h, t, ["enrollments:write", "users:write", "invites:write"]);
  const { courseId } = await makeCourse(h.database.db, t.id);
  const other = await makeCourse(h.database.db, t.id);
  return { t, key, courseId, otherCourseId: other.courseId };
}

function send(s: Setup, method: "POST" | "PATCH", url: string, payload: object) {
  return h.inject({
    method,
    url,
    headers: { host: s.t.host, "accept-language": "en-US", ...json, ...bearer(s.key) },
    payload,
  });
}

const enroll = (s: Setup, userId: string, courseId = s.courseId, role?: string) =>
  send(s, "POST", "/api/institution/enrollments", { userId, courseId, ...(role ? { role } : {}) });

async function enrollmentsOf(s: Setup, userId: string) {
  return h.database.db
    .select()
    .from(enrollments)
    .where(and(eq(enrollments.tenantId, s.t.id), eq(enrollments.userId, userId)));
}

const teachers = async (s: Setup, n: number) => {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await makeUser(h, s.t, "teacher")).id);
  return ids;
};

describe("the student limit counts student enrollments of non-students", () => {
  it("refuses a teacher enrolled as a student once the limit is reached, and counts such a teacher once", async () => {
    const s = await setup();
    await makeUser(h, s.t, "student");
    await makeUser(h, s.t, "student");
    const [t1, t2] = (await teachers(s, 2)) as [string, string];
    // The third seat goes to a teacher enrolled as a student; a second course costs no second seat.
    expect((await enroll(s, t1)).statusCode).toBe(201);
    expect((await enroll(s, t1, s.otherCourseId)).statusCode).toBe(201);
    const full = await enroll(s, t2);
    expect(full.statusCode, full.body).toBe(422);
    expect(full.json()).toMatchObject({ error: "student_limit_reached" });
    expect(await enrollmentsOf(s, t2)).toEqual([]);
    // As the course's teacher, nothing is counted.
    expect((await enroll(s, t2, s.courseId, "teacher")).statusCode).toBe(201);
    // The enrolled teacher holds a seat that user creation respects.
    const student = await send(s, "POST", "/api/institution/users", {
      name: "One too many",
      email: `late@${s.t.slug}.test`,
      role: "student",
    });
    expect(student.statusCode, student.body).toBe(422);
    // A teacher who already holds a seat through an enrollment may become a student at the limit.
    const demoted = await send(s, "PATCH", `/api/institution/users/${t1}`, { role: "student" });
    expect(demoted.statusCode, demoted.body).toBe(200);
  });

  it("fails the bulk items past the limit with student_limit_reached, in item order, creating the rest", async () => {
    const s = await setup();
    await makeUser(h, s.t, "student");
    const [t1, t2, t3, t4] = (await teachers(s, 4)) as [string, string, string, string];
    const student = await makeUser(h, s.t, "student");
    const res = await send(s, "POST", "/api/institution/enrollments/bulk", {
      items: [
        { userId: t1, courseId: s.courseId },
        { userId: t2, courseId: s.courseId },
        { userId: t3, courseId: s.courseId },
        { userId: t4, courseId: s.courseId, role: "teacher" },
        { userId: student.id, courseId: s.courseId },
        { userId: t1, courseId: s.otherCourseId },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json().results as { index: number; status: string; error?: { error: string } }[];
    expect(results.map((r) => r.status)).toEqual([
      "created",
      "failed",
      "failed",
      "created",
      "created",
      "created",
    ]);
    expect(results[1]?.error).toMatchObject({ error: "student_limit_reached" });
    expect(await enrollmentsOf(s, t2)).toEqual([]);
    expect(await enrollmentsOf(s, t3)).toEqual([]);
  });

  it("counts a dropped student enrollment taken back, like a new one", async () => {
    const s = await setup();
    await makeUser(h, s.t, "student");
    await makeUser(h, s.t, "student");
    const [t1, t2] = (await teachers(s, 2)) as [string, string];
    const first = await enroll(s, t1);
    expect(first.statusCode).toBe(201);
    const dropped = await send(s, "PATCH", `/api/institution/enrollments/${first.json().id}`, {
      status: "dropped",
    });
    expect(dropped.statusCode).toBe(200);
    // The seat it freed goes to another teacher.
    expect((await enroll(s, t2)).statusCode).toBe(201);
    const revived = await send(s, "PATCH", `/api/institution/enrollments/${first.json().id}`, {
      status: "active",
    });
    expect(revived.statusCode, revived.body).toBe(422);
    expect(revived.json().error).toBe("student_limit_reached");
    expect((await enrollmentsOf(s, t1))[0]?.status).toBe("dropped");
  });

  it("never exceeds the limit under concurrent enrollments", async () => {
    const s = await setup();
    const ids = await teachers(s, 6);
    const results = await Promise.all(ids.map((id) => enroll(s, id)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 422, 422, 422]);
    const rows = await h.database.db.select().from(enrollments).where(eq(enrollments.tenantId, s.t.id));
    expect(rows).toHaveLength(LIMIT);
  });

  it("answers 503 when the plan is unknown, and enrolls nothing", async () => {
    const s = await setup();
    const [t1] = (await teachers(s, 1)) as [string];
    await h.database.db.update(tenants).set({ plan: "legacy_2019" }).where(eq(tenants.id, s.t.id));
    const res = await enroll(s, t1);
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toBe("student_limit_unverifiable");
    expect(await enrollmentsOf(s, t1)).toEqual([]);
  });

  it("enrolls a teacher accepting an invitation with courses as the courses' teacher, taking no seat", async () => {
    const s = await setup();
    for (let i = 0; i < LIMIT; i++) await makeUser(h, s.t, "student");
    const sent = await send(s, "POST", "/api/institution/invites", {
      email: `prof@${s.t.slug}.test`,
      role: "teacher",
      courseIds: [s.courseId],
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const accepted = await h.inject({
      method: "POST",
      url: "/api/invites/accept",
      headers: { host: s.t.host, ...json },
      payload: { token: sent.json().token, name: "Prof", password: "a long enough password" },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const rows = await enrollmentsOf(s, accepted.json().user.id);
    expect(rows.map((r) => [r.courseId, r.role, r.source])).toEqual([[s.courseId, "teacher", "invite"]]);
  });
});
