import type { Executor } from "../../db/client.js";
import { AppError, type DetailKey, notFound, validationError } from "../../platform/errors/app-error.js";
import { canonicalIds } from "../../platform/http/schemas.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { existingCourses } from "../enrollments/lookups.js";
import { assertUsableMedia, findRow } from "../media/service.js";
import { type Layout, layoutIssues } from "./layout.js";
import * as repo from "./template-repo.js";
import type {
  CreateTemplateInput,
  ListTemplatesQueryType,
  TemplateRecord,
  UpdateTemplateInput,
} from "./template-schemas.js";

/** Images a certificate embeds: PNG or JPEG (what the PDF format draws natively), small enough to draw quickly. */
export const IMAGE_TYPES = new Set(["image/png", "image/jpeg"]);
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

export async function listTemplates(db: Executor, tenantId: string, query: ListTemplatesQueryType) {
  const window = pageWindow(query);
  const [data, total] = await Promise.all([
    repo.listTemplates(db, tenantId, query.status, window),
    repo.countTemplates(db, tenantId, query.status),
  ]);
  return cappedPageEnvelope(data, total, window);
}

export async function getTemplate(db: Executor, tenantId: string, id: string): Promise<TemplateRecord> {
  const template = await repo.findTemplate(db, tenantId, id);
  if (template === undefined) throw notFound();
  return template;
}

/** An image the template names must be a ready PNG or JPEG of the tenant, at most 2 MB (share-locked meanwhile). */
async function assertImage(tx: Executor, tenantId: string, id: string, field: string): Promise<void> {
  await assertUsableMedia(tx, tenantId, id, field, "image");
  const row = await findRow(tx, tenantId, id);
  if (row === undefined || !IMAGE_TYPES.has(row.contentType) || row.sizeBytes > MAX_IMAGE_BYTES) {
    throw validationError(field, "field.media_kind", { id, kind: "PNG or JPEG image of at most 2 MB" });
  }
}

type Changes = Partial<CreateTemplateInput>;

/** The canonical ids of the learning paths a create or change names (400 naming each unknown one). */
async function checkPaths(tx: Executor, tenantId: string, input: Changes): Promise<string[] | undefined> {
  if (input.learningPathIds === undefined) return undefined;
  const ids = canonicalIds(input.learningPathIds);
  const found = await repo.existingPaths(tx, tenantId, ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new AppError("validation_failed", {
      details: missing.map((id) => ({
        field: "learningPathIds",
        key: "field.unknown_learning_path",
        params: { id },
      })),
    });
  }
  return ids;
}

async function linkPaths(tx: Executor, tenantId: string, templateId: string, ids: string[] | undefined) {
  if (ids === undefined) return;
  if (!(await repo.replacePaths(tx, tenantId, templateId, ids))) {
    throw new AppError("conflict", { messageKey: "conflict.path_has_certificate_template" });
  }
}

/** Checks what a create or a change names: placeholders, images, courses. Answers the canonical course ids. */
async function checkReferences(
  tx: Executor,
  tenantId: string,
  input: Changes,
): Promise<string[] | undefined> {
  const details: DetailKey[] = input.layout === undefined ? [] : layoutIssues(input.layout as Layout);
  if (details.length > 0) throw new AppError("validation_failed", { details });
  for (const field of ["backgroundMediaId", "signatureMediaId"] as const) {
    const id = input[field];
    if (typeof id === "string") await assertImage(tx, tenantId, id.toLowerCase(), field);
  }
  if (input.courseIds === undefined) return undefined;
  const ids = canonicalIds(input.courseIds);
  const found = await existingCourses(tx, tenantId, ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new AppError("validation_failed", {
      details: missing.map((id) => ({ field: "courseIds", key: "field.unknown_course", params: { id } })),
    });
  }
  return ids;
}

async function linkCourses(tx: Executor, tenantId: string, templateId: string, ids: string[] | undefined) {
  if (ids === undefined) return;
  if (!(await repo.replaceCourses(tx, tenantId, templateId, ids))) {
    throw new AppError("conflict", { messageKey: "conflict.course_has_certificate_template" });
  }
}

const lower = (id: string | null | undefined) => (typeof id === "string" ? id.toLowerCase() : id);

export function createTemplate(
  db: Executor,
  tenantId: string,
  input: CreateTemplateInput,
): Promise<TemplateRecord> {
  return db.transaction(async (tx) => {
    const courseIds = await checkReferences(tx, tenantId, input);
    const pathIds = await checkPaths(tx, tenantId, input);
    const id = await repo.insertTemplate(tx, tenantId, {
      name: input.name,
      layout: input.layout as Layout,
      orientation: input.orientation ?? "landscape",
      backgroundMediaId: lower(input.backgroundMediaId) ?? null,
      signatureMediaId: lower(input.signatureMediaId) ?? null,
      expiresAfterDays: input.expiresAfterDays ?? null,
      status: input.status ?? "active",
    });
    await linkCourses(tx, tenantId, id, courseIds);
    await linkPaths(tx, tenantId, id, pathIds);
    return (await repo.findTemplate(tx, tenantId, id)) as TemplateRecord;
  });
}

/** Changes a template. Certificates already issued keep what they show; the PDF is drawn with the current layout. */
export function updateTemplate(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateTemplateInput,
): Promise<TemplateRecord> {
  return db.transaction(async (tx) => {
    if ((await repo.findTemplate(tx, tenantId, id, "no key update")) === undefined) throw notFound();
    const courseIds = await checkReferences(tx, tenantId, input);
    const pathIds = await checkPaths(tx, tenantId, input);
    const { courseIds: _links, learningPathIds: _paths, ...fields } = input;
    const changes = {
      ...fields,
      ...(fields.layout === undefined ? {} : { layout: fields.layout as Layout }),
      ...(fields.backgroundMediaId === undefined
        ? {}
        : { backgroundMediaId: lower(fields.backgroundMediaId) }),
      ...(fields.signatureMediaId === undefined ? {} : { signatureMediaId: lower(fields.signatureMediaId) }),
    } as Partial<repo.TemplateRow>;
    await repo.updateTemplate(tx, tenantId, id, changes);
    await linkCourses(tx, tenantId, id, courseIds);
    await linkPaths(tx, tenantId, id, pathIds);
    return (await repo.findTemplate(tx, tenantId, id)) as TemplateRecord;
  });
}
