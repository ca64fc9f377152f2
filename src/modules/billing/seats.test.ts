import { describe, expect, it } from "vitest";
import { tenantAdmin, useApi } from "../../test-support/api.js";
import { bearer, makeKey, makeUser } from "../../test-support/harness.js";

/**
 * `students` of GET /billing/subscription: the seats the plan's student limit counts, read from the counter and
 * query the limit check itself uses, so the figure shown is the one a creation is refused at.
 */
const { h, call } = useApi({ env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 4 }) } });

const STATUS = "/billing/subscription";

describe("GET /api/institution/billing/subscription: the seats used against the student limit", () => {
  it("counts students and non-students holding a current student enrollment, and refuses at the same figure", async () => {
    const admin = await tenantAdmin(h);
    const seats = async () => {
      const res = await call(admin.t, admin.cookie, "GET", STATUS);
      expect(res.statusCode).toBe(200);
      return res.json().students;
    };
    expect(await seats()).toEqual({ used: 0, limit: 4 });

    const student = await call(admin.t, admin.cookie, "POST", "/users", {
      name: "Ana Aluna",
      email: "ana@seats.test",
      role: "student",
    });
    expect(student.statusCode).toBe(201);
    expect(await seats()).toEqual({ used: 1, limit: 4 });

    const course = await call(admin.t, admin.cookie, "POST", "/courses", { title: "Álgebra" });
    expect(course.statusCode).toBe(201);
    const courseId = course.json().id as string;
    const enroll = (userId: string, role: "student" | "teacher") =>
      call(admin.t, admin.cookie, "POST", "/enrollments", { userId, courseId, role });

    // A teacher teaching takes no seat; the same teacher enrolled as a student does.
    const teacher = await makeUser(h, admin.t, "teacher");
    expect((await enroll(teacher.id, "teacher")).statusCode).toBe(201);
    expect(await seats()).toEqual({ used: 1, limit: 4 });
    const other = await makeUser(h, admin.t, "teacher");
    const asStudent = await enroll(other.id, "student");
    expect(asStudent.statusCode).toBe(201);
    expect(await seats()).toEqual({ used: 2, limit: 4 });

    // A student enrolled in a course is counted once, as before.
    expect((await enroll(student.json().id, "student")).statusCode).toBe(201);
    expect(await seats()).toEqual({ used: 2, limit: 4 });

    // A dropped enrollment frees the seat.
    const dropped = await call(admin.t, admin.cookie, "DELETE", `/enrollments/${asStudent.json().id}`);
    expect(dropped.statusCode).toBe(204);
    expect(await seats()).toEqual({ used: 1, limit: 4 });

    // Fill the plan: the limit check refuses exactly when `used` reaches `limit`.
    expect((await enroll(other.id, "student")).statusCode).toBe(201);
    await makeUser(h, admin.t, "student");
    await makeUser(h, admin.t, "student");
    expect(await seats()).toEqual({ used: 4, limit: 4 });
    const refused = await call(admin.t, admin.cookie, "POST", "/users", {
      name: "Bia",
      email: "bia@seats.test",
      role: "student",
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toBe("student_limit_reached");
    expect(await seats()).toEqual({ used: 4, limit: 4 });
  });

  it("is the tenant's own figure, readable by any member and by keys with settings:read", async () => {
    const a = await tenantAdmin(h);
    const b = await tenantAdmin(h);
    await makeUser(h, a.t, "student");
    await makeUser(h, a.t, "student");
    const read = async (tenant: typeof a.t, credential: string | Record<string, string>) =>
      call(tenant, credential, "GET", STATUS);

    expect((await read(a.t, a.cookie)).json().students).toEqual({ used: 2, limit: 4 });
    expect((await read(b.t, b.cookie)).json().students).toEqual({ used: 0, limit: 4 });
    const keyA = await makeKey(h, a.t, ["settings:read"]);
    expect((await read(a.t, bearer(keyA))).json().students).toEqual({ used: 2, limit: 4 });
    // A's key and A's session are nobody on B's host.
    expect((await read(b.t, bearer(keyA))).statusCode).toBe(401);
    expect((await read(b.t, a.cookie)).statusCode).toBe(401);
    const noScope = await makeKey(h, a.t, ["courses:read"]);
    const refused = await read(a.t, bearer(noScope));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("insufficient_scope");
  });
});
