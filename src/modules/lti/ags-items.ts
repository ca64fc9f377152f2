/**
 * AGS line item update (PUT) and delete. The line item is its grade item, so both go through the gradebook's own
 * update and delete (locks, course grade recomputation): a new `scoreMaximum` rescales nothing already written,
 * and deleting the line item takes its grade item and that item's grades with it, as AGS 2.0 3.2.7 says.
 */
import { and, eq } from "drizzle-orm";
import { ltiLineItems } from "../../db/schema/index.js";
import { validationError } from "../../platform/errors/app-error.js";
import { deleteItem, updateItem } from "../gradebook/items.js";
import { findLineItem, getLineItem, type LineItemInput } from "./ags.js";
import type { ToolRow } from "./tool-repo.js";
import type { LtiDeps } from "./tools.js";

const SYSTEM = { kind: "system" } as const;
const short = (v: unknown, max = 255) => (typeof v === "string" && v.length <= max ? v : undefined);

export async function updateLineItem(
  deps: LtiDeps,
  tenantId: string,
  tool: ToolRow,
  courseId: string,
  id: string,
  input: LineItemInput,
) {
  const item = await findLineItem(deps, tenantId, tool, courseId, id);
  const max = input.scoreMaximum;
  if (typeof max !== "number" || !Number.isFinite(max) || max <= 0 || max > 100_000) {
    throw validationError("scoreMaximum", "field.invalid");
  }
  const label = short(input.label, 200)?.trim();
  if (label === undefined || label === "") throw validationError("label", "field.required");
  await deps.ctx.database.db.transaction(async (tx) => {
    await updateItem(tx, tenantId, SYSTEM, item.gradeItemId, { title: label, maxPoints: max });
    // PUT replaces the line item: fields left out are cleared.
    await tx
      .update(ltiLineItems)
      .set({
        resourceLinkId: short(input.resourceLinkId) ?? null,
        resourceId: short(input.resourceId) ?? null,
        tag: short(input.tag) ?? null,
      })
      .where(and(eq(ltiLineItems.tenantId, tenantId), eq(ltiLineItems.id, item.id)));
  });
  return getLineItem(deps, tenantId, tool, courseId, item.id);
}

export async function deleteLineItem(
  deps: LtiDeps,
  tenantId: string,
  tool: ToolRow,
  courseId: string,
  id: string,
): Promise<void> {
  const item = await findLineItem(deps, tenantId, tool, courseId, id);
  await deps.ctx.database.db.transaction(async (tx) => {
    await tx
      .delete(ltiLineItems)
      .where(and(eq(ltiLineItems.tenantId, tenantId), eq(ltiLineItems.id, item.id)));
    await deleteItem(tx, tenantId, SYSTEM, item.gradeItemId, true);
  });
}
