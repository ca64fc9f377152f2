/**
 * Assignment and Grade Services 2.0 for a tool in one course: line items are gradebook grade items fed by the
 * source `lti` (the line item's id is the item's source id), and a FullyGraded score writes the student's grade
 * through the gradebook's write path (recordSourceGrade), so the change log, the course grade and
 * `grade_posted` follow as for any grade.
 */
import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { gradeItems, ltiLineItems } from "../../db/schema/index.js";
import { notFound, validationError } from "../../platform/errors/app-error.js";
import { isUuid } from "../../platform/http/schemas.js";
import { courseExists } from "../courses/repo.js";
import { createItem } from "../gradebook/items.js";
import { recordSourceGrade } from "../gradebook/source-grades.js";
import type { ToolRow } from "./tool-repo.js";
import { LTI_PATH, type LtiDeps } from "./tools.js";

const SYSTEM = { kind: "system" } as const;
export const MAX_LINE_ITEMS_PAGE = 100;

export interface LineItemInput {
  scoreMaximum?: unknown;
  label?: unknown;
  resourceLinkId?: unknown;
  resourceId?: unknown;
  tag?: unknown;
}

export interface ScoreInput {
  userId?: unknown;
  scoreGiven?: unknown;
  scoreMaximum?: unknown;
  activityProgress?: unknown;
  gradingProgress?: unknown;
  timestamp?: unknown;
  comment?: unknown;
}

const short = (v: unknown, max = 255) => (typeof v === "string" && v.length <= max ? v : undefined);

export function lineItemUrl(deps: LtiDeps, courseId: string, id: string) {
  return `${deps.origin}${LTI_PATH}/courses/${courseId}/line-items/${id}`;
}

const columns = {
  id: ltiLineItems.id,
  resourceLinkId: ltiLineItems.resourceLinkId,
  resourceId: ltiLineItems.resourceId,
  tag: ltiLineItems.tag,
  label: gradeItems.title,
  scoreMaximum: gradeItems.maxPoints,
  gradeItemId: ltiLineItems.gradeItemId,
};
type LineItemRow = {
  id: string;
  gradeItemId: string;
  resourceLinkId: string | null;
  resourceId: string | null;
  tag: string | null;
  label: string;
  scoreMaximum: number;
};

function toLineItem(deps: LtiDeps, courseId: string, row: LineItemRow) {
  return {
    id: lineItemUrl(deps, courseId, row.id),
    label: row.label,
    scoreMaximum: Number(row.scoreMaximum),
    ...(row.resourceLinkId === null ? {} : { resourceLinkId: row.resourceLinkId }),
    ...(row.resourceId === null ? {} : { resourceId: row.resourceId }),
    ...(row.tag === null ? {} : { tag: row.tag }),
  };
}

/** The tool's line items with their grade items' label and maximum. */
function lineItemsOf(deps: LtiDeps) {
  return deps.ctx.database.db
    .select(columns)
    .from(ltiLineItems)
    .innerJoin(
      gradeItems,
      and(eq(gradeItems.tenantId, ltiLineItems.tenantId), eq(gradeItems.id, ltiLineItems.gradeItemId)),
    );
}

const inCourse = (tenantId: string, tool: ToolRow, courseId: string) => [
  eq(ltiLineItems.tenantId, tenantId),
  eq(ltiLineItems.toolId, tool.id),
  eq(ltiLineItems.courseId, courseId),
];

export async function requireCourse(deps: LtiDeps, tenantId: string, courseId: string): Promise<string> {
  if (!isUuid(courseId) || !(await courseExists(deps.ctx.database.db, tenantId, courseId.toLowerCase()))) {
    throw notFound();
  }
  return courseId.toLowerCase();
}

export async function listLineItems(
  deps: LtiDeps,
  tenantId: string,
  tool: ToolRow,
  courseId: string,
  filter: { resource_link_id?: string; tag?: string; page: number; limit: number },
) {
  const rows = await lineItemsOf(deps)
    .where(
      and(
        ...inCourse(tenantId, tool, courseId),
        filter.resource_link_id === undefined
          ? undefined
          : eq(ltiLineItems.resourceLinkId, filter.resource_link_id),
        filter.tag === undefined ? undefined : eq(ltiLineItems.tag, filter.tag),
      ),
    )
    .orderBy(asc(ltiLineItems.createdAt), asc(ltiLineItems.id))
    .limit(filter.limit + 1)
    .offset((filter.page - 1) * filter.limit);
  return {
    items: rows.slice(0, filter.limit).map((r) => toLineItem(deps, courseId, r)),
    hasMore: rows.length > filter.limit,
  };
}

export async function findLineItem(
  deps: LtiDeps,
  tenantId: string,
  tool: ToolRow,
  courseId: string,
  id: string,
) {
  if (!isUuid(id)) throw notFound();
  const [row] = await lineItemsOf(deps).where(
    and(...inCourse(tenantId, tool, courseId), eq(ltiLineItems.id, id.toLowerCase())),
  );
  if (row === undefined) throw notFound();
  return row;
}

export async function getLineItem(
  deps: LtiDeps,
  tenantId: string,
  tool: ToolRow,
  courseId: string,
  id: string,
) {
  return toLineItem(deps, courseId, await findLineItem(deps, tenantId, tool, courseId, id));
}

export async function createLineItem(
  deps: LtiDeps,
  tenantId: string,
  tool: ToolRow,
  courseId: string,
  input: LineItemInput,
) {
  const max = input.scoreMaximum;
  if (typeof max !== "number" || !Number.isFinite(max) || max <= 0 || max > 100_000) {
    throw validationError("scoreMaximum", "field.invalid");
  }
  const label = short(input.label, 200)?.trim();
  if (label === undefined || label === "") throw validationError("label", "field.required");
  const id = randomUUID();
  await deps.ctx.database.db.transaction(async (tx) => {
    const item = await createItem(tx, tenantId, SYSTEM, courseId, {
      title: label,
      maxPoints: max,
      sourceType: "lti",
      sourceId: id,
    });
    await tx.insert(ltiLineItems).values({
      tenantId,
      id,
      toolId: tool.id,
      courseId,
      gradeItemId: item.id,
      resourceLinkId: short(input.resourceLinkId) ?? null,
      resourceId: short(input.resourceId) ?? null,
      tag: short(input.tag) ?? null,
    });
  });
  return getLineItem(deps, tenantId, tool, courseId, id);
}

const GRADING = ["FullyGraded", "Pending", "PendingManual", "Failed", "NotReady"];

/** A score: FullyGraded ones become the student's grade (as a percentage of the score's own maximum). */
export async function postScore(
  deps: LtiDeps,
  tenantId: string,
  tool: ToolRow,
  courseId: string,
  lineItemId: string,
  input: ScoreInput,
): Promise<{ written: boolean }> {
  const item = await findLineItem(deps, tenantId, tool, courseId, lineItemId);
  const userId = short(input.userId, 64);
  if (userId === undefined || !isUuid(userId)) throw validationError("userId", "field.invalid");
  if (typeof input.gradingProgress !== "string" || !GRADING.includes(input.gradingProgress)) {
    throw validationError("gradingProgress", "field.invalid");
  }
  if (typeof input.activityProgress !== "string") throw validationError("activityProgress", "field.required");
  if (typeof input.timestamp !== "string" || Number.isNaN(Date.parse(input.timestamp))) {
    throw validationError("timestamp", "field.invalid");
  }
  if (input.gradingProgress !== "FullyGraded" || input.scoreGiven === undefined) return { written: false };
  const given = input.scoreGiven;
  const max = input.scoreMaximum;
  if (typeof given !== "number" || !Number.isFinite(given) || given < 0)
    throw validationError("scoreGiven", "field.invalid");
  if (typeof max !== "number" || !Number.isFinite(max) || max <= 0)
    throw validationError("scoreMaximum", "field.invalid");
  const percent = Math.min((given / max) * 100, 1_000);
  const comment = short(input.comment, 5000);
  const written = await deps.ctx.database.db.transaction((tx) =>
    recordSourceGrade(tx, tenantId, SYSTEM, {
      courseId,
      sourceType: "lti",
      sourceId: item.id,
      userId: userId.toLowerCase(),
      percent,
      ...(comment === undefined ? {} : { feedback: comment }),
    }),
  );
  return { written: written.length > 0 };
}
