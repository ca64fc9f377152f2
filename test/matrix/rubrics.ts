import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { rubricAssessments, rubrics, rubricVersions } from "../../src/db/schema/index.js";
import { createAssessment } from "../../src/modules/rubrics/assessments.js";
import { createRubric } from "../../src/modules/rubrics/service.js";
import { rubricBody, submittedAttempt } from "../../src/modules/rubrics/test-fixtures.js";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

type Params = string | Record<string, string>;
const idOf = (params: Params) => (typeof params === "string" ? params : (params.id as string));
const SYSTEM = { kind: "system" } as const;

const made = (h: Harness, t: TestTenant) => createRubric(h.database.db, t.id, SYSTEM, rubricBody() as never);
const rubric = async (h: Harness, t: TestTenant) => (await made(h, t)).id;
const criterion = async (h: Harness, t: TestTenant) => {
  const r = await made(h, t);
  return { id: r.id, criterionId: r.criteria[0]?.id as string };
};
/** A rubric with one grading assessment of a submitted quiz attempt. */
const assessment = async (h: Harness, t: TestTenant) => {
  const r = await made(h, t);
  const attempt = await submittedAttempt(h.database.db, t);
  const a = await createAssessment(h.database.db, t.id, SYSTEM, r.id, {
    targetType: "quiz_attempt",
    targetId: attempt.attemptId,
    criterionScores: r.criteria.map((c) => ({ criterionId: c.id, points: c.points })),
  });
  return { id: r.id, assessmentId: a.id };
};

/** The rubric's row, versions and assessments: nothing of it may change on a refused request. */
async function snapshot(h: Harness, t: TestTenant, params: Params) {
  const db = h.database.db;
  const id = idOf(params);
  const [row] = await db
    .select()
    .from(rubrics)
    .where(and(eq(rubrics.tenantId, t.id), eq(rubrics.id, id)));
  if (row === undefined) return undefined;
  return {
    row,
    versions: await db
      .select()
      .from(rubricVersions)
      .where(and(eq(rubricVersions.tenantId, t.id), eq(rubricVersions.rubricId, id)))
      .orderBy(asc(rubricVersions.version)),
    assessments: await db
      .select()
      .from(rubricAssessments)
      .where(and(eq(rubricAssessments.tenantId, t.id), eq(rubricAssessments.rubricId, id)))
      .orderBy(asc(rubricAssessments.id)),
  };
}

const CRITERION = {
  description: "Matrix",
  points: 2,
  ratings: [
    { description: "Sim", points: 2 },
    { description: "Não", points: 0 },
  ],
};

export const fixtures: Fixtures = {
  "GET /api/institution/rubrics": {},
  "POST /api/institution/rubrics": { body: rubricBody() },
  "POST /api/institution/rubrics/import": {
    body: {
      csv: "Rubric Name,Criteria Name,Rating Name,Rating Points,Rating Name,Rating Points\nM,C,A,1,B,0\n",
    },
  },
  "GET /api/institution/rubrics/:id": { makeObject: rubric, snapshot },
  "PATCH /api/institution/rubrics/:id": { body: { title: "Renamed" }, makeObject: rubric, snapshot },
  "DELETE /api/institution/rubrics/:id": { makeObject: rubric, snapshot },
  "PUT /api/institution/rubrics/:id/criteria/:criterionId": {
    body: CRITERION,
    makeObject: criterion,
    snapshot,
  },
  "DELETE /api/institution/rubrics/:id/criteria/:criterionId": { makeObject: criterion, snapshot },
  "POST /api/institution/rubrics/:id/assessments": {
    body: {
      targetType: "quiz_attempt",
      targetId: randomUUID(),
      criterionScores: [{ criterionId: randomUUID(), points: 1 }],
    },
    makeObject: rubric,
    snapshot,
  },
  "GET /api/institution/rubrics/:id/assessments": { makeObject: rubric, snapshot },
  "GET /api/institution/rubrics/:id/assessments/:assessmentId": { makeObject: assessment, snapshot },
};
