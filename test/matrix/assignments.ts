import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import {
  assignmentExtensions,
  assignments,
  submissionComments,
  submissions,
  submissionVersions,
  users,
} from "../../src/db/schema/index.js";
import { enrollAs, makeAssignment } from "../../src/modules/assignments/test-fixtures.js";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

type Params = string | Record<string, string>;

/** One student per tenant, enrolled in each course made here: the matrix's tenants share a student limit. */
const learners = new Map<string, string>();
async function student(h: Harness, t: TestTenant, courseId: string): Promise<string> {
  let id = learners.get(t.id);
  if (id === undefined) {
    const [row] = await h.database.db
      .insert(users)
      .values({
        tenantId: t.id,
        name: "Matrix Learner",
        email: `l-${randomUUID()}@${t.slug}.test`,
        role: "student",
      })
      .returning({ id: users.id });
    id = (row as { id: string }).id;
    learners.set(t.id, id);
  }
  await enrollAs(h.database.db, t.id, id, courseId);
  return id;
}

/** An assignment with one student's extension and submission: what every route of the group may touch. */
async function made(h: Harness, t: TestTenant) {
  const db = h.database.db;
  const lesson = await makeAssignment(db, t.id);
  const userId = await student(h, t, lesson.courseId);
  await db.insert(assignmentExtensions).values({
    tenantId: t.id,
    assignmentId: lesson.assignmentId,
    userId,
    dueAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  const [row] = await db
    .insert(submissions)
    .values({
      tenantId: t.id,
      assignmentId: lesson.assignmentId,
      lessonId: lesson.lessonId,
      courseId: lesson.courseId,
      userId,
      attempt: 1,
      status: "submitted",
      bodyText: "Matrix",
      submittedAt: new Date().toISOString(),
    })
    .returning({ id: submissions.id });
  return { ...lesson, userId, submissionId: (row as { id: string }).id };
}

/** The assignment, its extensions, submissions and their history, in a stable order. */
async function tree(h: Harness, t: TestTenant, assignmentId: string | undefined) {
  if (assignmentId === undefined) return undefined;
  const db = h.database.db;
  const [assignment] = await db
    .select()
    .from(assignments)
    .where(and(eq(assignments.tenantId, t.id), eq(assignments.id, assignmentId)));
  if (assignment === undefined) return undefined;
  const subs = await db
    .select()
    .from(submissions)
    .where(and(eq(submissions.tenantId, t.id), eq(submissions.assignmentId, assignmentId)))
    .orderBy(asc(submissions.id));
  return {
    assignment,
    extensions: await db
      .select()
      .from(assignmentExtensions)
      .where(
        and(eq(assignmentExtensions.tenantId, t.id), eq(assignmentExtensions.assignmentId, assignmentId)),
      )
      .orderBy(asc(assignmentExtensions.userId)),
    submissions: subs,
    comments: await db
      .select()
      .from(submissionComments)
      .where(eq(submissionComments.tenantId, t.id))
      .orderBy(asc(submissionComments.id)),
    versions: await db
      .select()
      .from(submissionVersions)
      .where(eq(submissionVersions.tenantId, t.id))
      .orderBy(asc(submissionVersions.submissionId), asc(submissionVersions.attempt)),
  };
}

const byColumn = async (h: Harness, t: TestTenant, column: "lessonId" | "id", value: string) => {
  const table = column === "id" ? submissions : assignments;
  const [row] = await h.database.db
    .select({ assignmentId: column === "id" ? submissions.assignmentId : assignments.id })
    .from(table)
    .where(and(eq(table.tenantId, t.id), eq(column === "id" ? submissions.id : assignments.lessonId, value)));
  return row?.assignmentId;
};

const param = (params: Params, name: string) =>
  typeof params === "string" ? params : (params[name] as string);
const assignmentSnapshot = (h: Harness, t: TestTenant, params: Params) => tree(h, t, param(params, "id"));
const lessonSnapshot = async (h: Harness, t: TestTenant, params: Params) =>
  tree(h, t, await byColumn(h, t, "lessonId", param(params, "lessonId")));
const submissionSnapshot = async (h: Harness, t: TestTenant, params: Params) =>
  tree(h, t, await byColumn(h, t, "id", param(params, "id")));

const assignment = async (h: Harness, t: TestTenant) => (await made(h, t)).assignmentId;
const extension = async (h: Harness, t: TestTenant) => {
  const m = await made(h, t);
  return { id: m.assignmentId, userId: m.userId };
};
const lesson = async (h: Harness, t: TestTenant) => ({ lessonId: (await made(h, t)).lessonId });
const submission = async (h: Harness, t: TestTenant) => (await made(h, t)).submissionId;

export const fixtures: Fixtures = {
  "POST /api/institution/assignments": { body: { lessonId: randomUUID() } },
  "GET /api/institution/assignments/:id": { makeObject: assignment, snapshot: assignmentSnapshot },
  "PATCH /api/institution/assignments/:id": {
    body: { allowedAttempts: 5 },
    makeObject: assignment,
    snapshot: assignmentSnapshot,
  },
  "DELETE /api/institution/assignments/:id": { makeObject: assignment, snapshot: assignmentSnapshot },
  "PUT /api/institution/assignments/:id/extensions/:userId": {
    body: { dueAt: "2030-01-01T00:00:00.000Z" },
    makeObject: extension,
    snapshot: assignmentSnapshot,
  },
  "DELETE /api/institution/assignments/:id/extensions/:userId": {
    makeObject: extension,
    snapshot: assignmentSnapshot,
  },
  "POST /api/institution/lessons/:lessonId/submissions": {
    body: { bodyText: "Matrix" },
    makeObject: lesson,
    snapshot: lessonSnapshot,
  },
  "GET /api/institution/lessons/:lessonId/assignment": { makeObject: lesson, snapshot: lessonSnapshot },
  "GET /api/institution/lessons/:lessonId/submissions": { makeObject: lesson, snapshot: lessonSnapshot },
  "GET /api/institution/submissions/:id": { makeObject: submission, snapshot: submissionSnapshot },
  "GET /api/institution/submissions/:id/comments": { makeObject: submission, snapshot: submissionSnapshot },
  "POST /api/institution/submissions/:id/comments": {
    body: { body: "Matrix" },
    makeObject: submission,
    snapshot: submissionSnapshot,
  },
  "PATCH /api/institution/submissions/:id": {
    body: { score: 1 },
    makeObject: submission,
    snapshot: submissionSnapshot,
  },
};
