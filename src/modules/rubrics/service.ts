import type { Executor } from "../../db/client.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { assertReadable } from "../courses/audience.js";
import { courseExists } from "../courses/repo.js";
import type { Actor } from "../events/actor.js";
import { assertCourseStaff, learnerOf } from "./access.js";
import { normaliseCriteria, pointsOf, renumber } from "./criteria.js";
import * as repo from "./repo.js";
import {
  type CreateRubricInput,
  type CriterionRecord,
  type ListRubricsQueryType,
  MAX_CRITERIA,
  type PutCriterionInput,
  type RubricRecord,
  type RubricScope,
  type UpdateRubricInput,
} from "./schemas.js";

// What other modules may call: an assessment recorded inside their own transaction (submissions, later).
export { type AssessedTarget, recordAssessment } from "./record.js";

export async function listRubrics(db: Executor, tenantId: string, query: ListRubricsQueryType) {
  const window = pageWindow(query);
  const filter = { scope: query.scope, courseId: query.courseId, status: query.status, search: query.search };
  const [data, total] = await Promise.all([
    repo.listRubrics(db, tenantId, filter, query.sort ?? "-createdAt", window),
    repo.countRubrics(db, tenantId, filter),
  ]);
  return cappedPageEnvelope(data, total, window);
}

/** One rubric; a student reads institution rubrics and those of the courses it may read (404 otherwise). */
export async function getRubric(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
): Promise<RubricRecord> {
  const rubric = await repo.findRubric(db, tenantId, id);
  if (rubric === undefined) throw notFound();
  const userId = learnerOf(actor);
  if (userId !== undefined && rubric.courseId !== null)
    await assertReadable(db, tenantId, { kind: "learner", userId }, { courseId: rubric.courseId });
  return rubric;
}

/** The scope and course a new rubric takes: `course` with a course of the tenant, `institution` without one. */
async function placeOf(db: Executor, tenantId: string, input: CreateRubricInput) {
  const courseId = input.courseId?.toLowerCase() ?? null;
  const scope: RubricScope = input.scope ?? (courseId === null ? "institution" : "course");
  if (scope === "course" && courseId === null) throw validationError("courseId", "field.required");
  if (scope === "institution" && courseId !== null) throw validationError("courseId", "field.scope_target");
  if (courseId !== null && !(await courseExists(db, tenantId, courseId)))
    throw validationError("courseId", "field.unknown_course", { id: courseId });
  return { scope, courseId };
}

/** 400 for a scope and course that do not fit, 403 for a teacher outside the course: before any write. */
export async function assertPlace(tx: Executor, tenantId: string, actor: Actor, input: CreateRubricInput) {
  const { courseId } = await placeOf(tx, tenantId, input);
  await assertCourseStaff(tx, tenantId, actor, courseId);
}

/** Creates a rubric and its version 1, inside the caller's transaction. */
export async function insertRubric(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  input: CreateRubricInput,
): Promise<string> {
  const { scope, courseId } = await placeOf(tx, tenantId, input);
  await assertCourseStaff(tx, tenantId, actor, courseId);
  const criteria = normaliseCriteria(input.criteria);
  const id = await repo.insertRubric(tx, tenantId, {
    title: input.title,
    description: input.description ?? null,
    scope,
    courseId,
    freeFormComments: input.freeFormComments ?? false,
    hideScoreTotal: input.hideScoreTotal ?? false,
    status: input.status ?? "active",
  });
  await repo.saveVersion(tx, tenantId, id, 1, criteria, pointsOf(criteria));
  return id;
}

export async function createRubric(
  db: Executor,
  tenantId: string,
  actor: Actor,
  input: CreateRubricInput,
): Promise<RubricRecord> {
  return db.transaction(async (tx) => {
    const id = await insertRubric(tx, tenantId, actor, input);
    return (await repo.findRubric(tx, tenantId, id)) as RubricRecord;
  });
}

/** The rubric locked for a change of it (assessments take it shared), after the actor's check. */
async function lockedRubric(tx: Executor, tenantId: string, actor: Actor, id: string): Promise<RubricRecord> {
  const rubric = await repo.findRubric(tx, tenantId, id, "update");
  if (rubric === undefined) throw notFound();
  await assertCourseStaff(tx, tenantId, actor, rubric.courseId);
  return rubric;
}

/**
 * Makes `criteria` the rubric's: the current version is rewritten while no assessment was made with it, and
 * otherwise left as it is and the next version written (the rubric then points at it).
 */
async function replaceCriteria(
  tx: Executor,
  tenantId: string,
  rubric: RubricRecord,
  criteria: CriterionRecord[],
) {
  const used = await repo.versionInUse(tx, tenantId, rubric.id, rubric.version);
  const version = used ? rubric.version + 1 : rubric.version;
  await repo.saveVersion(tx, tenantId, rubric.id, version, criteria, pointsOf(criteria));
  await repo.updateRubric(tx, tenantId, rubric.id, { version });
}

export async function updateRubric(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
  input: UpdateRubricInput,
): Promise<RubricRecord> {
  return db.transaction(async (tx) => {
    const rubric = await lockedRubric(tx, tenantId, actor, id);
    const { criteria, ...fields } = input;
    if (criteria !== undefined) await replaceCriteria(tx, tenantId, rubric, normaliseCriteria(criteria));
    await repo.updateRubric(tx, tenantId, id, fields);
    return (await repo.findRubric(tx, tenantId, id)) as RubricRecord;
  });
}

/** Deletes a rubric never assessed (204); archives one that was (its assessments keep their versions). */
export async function deleteRubric(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
): Promise<RubricRecord | undefined> {
  return db.transaction(async (tx) => {
    const rubric = await lockedRubric(tx, tenantId, actor, id);
    if (!rubric.inUse) {
      await repo.deleteRubric(tx, tenantId, id);
      return undefined;
    }
    await repo.updateRubric(tx, tenantId, id, { status: "archived" });
    return (await repo.findRubric(tx, tenantId, id)) as RubricRecord;
  });
}

/** Upserts one criterion: replaced in place (or moved to `position`), or added last. Answers whether it is new. */
export async function putCriterion(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
  criterionId: string,
  input: PutCriterionInput,
): Promise<{ rubric: RubricRecord; created: boolean }> {
  return db.transaction(async (tx) => {
    const rubric = await lockedRubric(tx, tenantId, actor, id);
    const { position, ...fields } = input;
    const [criterion] = normaliseCriteria([{ ...fields, id: criterionId }], () => "");
    const list = [...rubric.criteria];
    const at = list.findIndex((c) => c.id === criterionId);
    if (at >= 0) list.splice(at, 1);
    else if (list.length >= MAX_CRITERIA)
      throw validationError("criterionId", "field.max_items", { limit: MAX_CRITERIA });
    const place = position === undefined ? (at >= 0 ? at : list.length) : Math.min(position - 1, list.length);
    list.splice(place, 0, criterion as CriterionRecord);
    await replaceCriteria(tx, tenantId, rubric, renumber(list));
    return { rubric: (await repo.findRubric(tx, tenantId, id)) as RubricRecord, created: at < 0 };
  });
}

/** Removes one criterion (404 unknown; 409 for the last one: a rubric keeps at least one). */
export async function deleteCriterion(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
  criterionId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const rubric = await lockedRubric(tx, tenantId, actor, id);
    const list = rubric.criteria.filter((c) => c.id !== criterionId);
    if (list.length === rubric.criteria.length) throw notFound();
    if (list.length === 0)
      throw new AppError("conflict", { messageKey: "field.min_items", params: { limit: 1 } });
    await replaceCriteria(tx, tenantId, rubric, renumber(list));
  });
}
