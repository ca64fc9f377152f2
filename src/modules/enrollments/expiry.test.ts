import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { enrollments, lessonCompletions, platformEvents } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import { makeUser } from "../../test-support/harness.js";
import { JOBS } from "../../worker/runner.js";
import { expireEnrollments } from "./expiry.js";

const { h, tenants } = useApi({ env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 100 }) }, tenants: 1 });
const [t] = tenants;

const past = new Date(Date.now() - 3_600_000).toISOString();
const future = new Date(Date.now() + 86_400_000).toISOString();

describe("enrollment expiry", () => {
  it("expires active enrollments past their expiry once, with enrollment_expired and their progress", async () => {
    const db = h.database.db;
    const course = await makeCourse(db, t.id, [{ lessons: [{}, {}] }]);
    const [lapsed, later, finished] = await Promise.all([1, 2, 3].map(() => makeUser(h, t, "student")));
    const ids = {
      lapsed: await enrollDirectly(db, t.id, lapsed!.id, course.courseId),
      later: await enrollDirectly(db, t.id, later!.id, course.courseId),
      finished: await enrollDirectly(db, t.id, finished!.id, course.courseId, "completed"),
    };
    await db
      .update(enrollments)
      .set({ expiresAt: past })
      .where(inArray(enrollments.id, [ids.lapsed, ids.finished]));
    await db.update(enrollments).set({ expiresAt: future }).where(eq(enrollments.id, ids.later));
    await db.insert(lessonCompletions).values({
      tenantId: t.id,
      lessonId: course.lessonIds[0] as string,
      userId: lapsed!.id,
      courseId: course.courseId,
      moduleId: course.modules[0]?.id as string,
      enrollmentId: ids.lapsed,
    });

    expect(await expireEnrollments(db)).toBeGreaterThanOrEqual(1);
    const statuses = await db
      .select({ id: enrollments.id, status: enrollments.status })
      .from(enrollments)
      .where(eq(enrollments.tenantId, t.id));
    expect(Object.fromEntries(statuses.map((r) => [r.id, r.status]))).toEqual({
      [ids.lapsed]: "expired",
      [ids.later]: "active",
      [ids.finished]: "completed",
    });
    const events = () =>
      db
        .select()
        .from(platformEvents)
        .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "enrollment_expired")));
    const [event] = await events();
    expect(event?.data).toEqual({
      enrollmentId: ids.lapsed,
      courseId: course.courseId,
      userId: lapsed?.id,
      enrollment: expect.objectContaining({ id: ids.lapsed, status: "expired", expiresAt: past }),
      expiresAt: past,
      progressPercent: 50,
    });
    expect(event?.subject).toMatchObject({ id: lapsed!.id, role: "student" });

    await expireEnrollments(db);
    expect(await events()).toHaveLength(1);
  });

  it("runs hourly in the worker", () => {
    expect(JOBS.find((j) => j.name === "enrollments-expire")?.everyMs).toBe(3_600_000);
    expect(JOBS.find((j) => j.name === "invites-expire")?.everyMs).toBe(3_600_000);
  });
});
