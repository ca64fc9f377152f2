import { beforeAll, describe, expect, it } from "vitest";
import { callerFor, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeKey, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { csvField } from "./csv.js";
import { enrollAs, publishedCourse } from "./test-fixtures.js";

const { h, tenants } = useApi({ env: MANY_STUDENTS, tenants: 2 });
const [a, b] = tenants;
let key: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));

beforeAll(async () => {
  key = await makeKey(h, a, ["grades:read", "grades:write"], UNLIMITED_KEY);
});

describe("the gradebook as CSV", () => {
  it("streams a header and one line per student; a student's session gets its own posted grades", async () => {
    const course = await publishedCourse(h.database.db, a.id);
    const ana = await signedInUser(h, a, "student");
    const bia = await signedInUser(h, a, "student");
    await enrollAs(h.database.db, a.id, ana.id, course);
    await enrollAs(h.database.db, a.id, bia.id, course);
    const shown = (
      await call("POST", `/courses/${course}/grade-items`, { title: "=Prova, 1", maxPoints: 10 })
    ).json();
    const hidden = (
      await call("POST", `/courses/${course}/grade-items`, {
        title: "Lista",
        maxPoints: 10,
        postPolicy: "manual",
      })
    ).json();
    await call("POST", `/courses/${course}/grades/bulk`, {
      items: [
        { gradeItemId: shown.id, userId: ana.id, score: 8 },
        { gradeItemId: hidden.id, userId: ana.id, score: 6 },
        { gradeItemId: shown.id, userId: bia.id, status: "excused" },
      ],
    });
    const res = await call("GET", `/courses/${course}/gradebook.csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = res.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      `Student,Email,User ID,Enrollment status,"'=Prova, 1 (10)",Lista (10),Current score,Final score,Current letter,Final letter,Unposted current score,Unposted final score`,
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`${ana.id},active,8,6,80,40,B,F,70,70`);
    expect(lines[2]).toContain(`${bia.id},active,excused,,,0,,F,,0`);

    const own = await call("GET", `/courses/${course}/gradebook.csv`, undefined, ana.cookie);
    expect(own.statusCode).toBe(200);
    const ownLines = own.body.trimEnd().split("\r\n");
    expect(ownLines).toHaveLength(2);
    expect(ownLines[1]).toContain(`${ana.id},active,8,,80,40,B,F`);
    // Another tenant's course is 404, as JSON.
    const foreign = await publishedCourse(h.database.db, b.id);
    const refused = await call("GET", `/courses/${foreign}/gradebook.csv`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error).toBe("not_found");
  });

  it("quotes what needs quoting and defuses formulas", () => {
    expect(csvField('a "b", c')).toBe('"a ""b"", c"');
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("-1")).toBe("'-1");
    expect(csvField(-1)).toBe("-1");
    expect(csvField(null)).toBe("");
  });
});
