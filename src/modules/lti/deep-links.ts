/**
 * Deep linking, the return leg (LTI Deep Linking 2.0, 4.5): the tool form-posts an LtiDeepLinkingResponse JWT
 * signed with its own key. It must name the launch we sent (`data`), be that launch's first response, and come
 * from the tool the launch was for; its content items become lessons of the course, all in one transaction.
 */
import { and, asc, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { courseModules, lessons, ltiLaunches, ltiLinks } from "../../db/schema/index.js";
import { AppError, validationError } from "../../platform/errors/app-error.js";
import { isUuid } from "../../platform/http/schemas.js";
import type { OutboundClient } from "../../platform/outbound/client.js";
import { createLesson } from "../lessons/service.js";
import { peekClaims, unverified, verifyToolJwt } from "./tool-keys.js";
import * as repo from "./tool-repo.js";
import { isBrowserUrl, type LtiDeps, platformOf } from "./tools.js";

const DL = "https://purl.imsglobal.org/spec/lti-dl/claim";
const LTI = "https://purl.imsglobal.org/spec/lti/claim";
export const MAX_CONTENT_ITEMS = 50;

interface ContentItem {
  type?: unknown;
  title?: unknown;
  text?: unknown;
  url?: unknown;
  custom?: unknown;
}

const text = (value: unknown, max: number) => (typeof value === "string" ? value.slice(0, max) : undefined);
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function customOf(value: unknown): Record<string, string> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value).slice(0, 50)) {
    if (/^[A-Za-z0-9_]{1,64}$/.test(k) && typeof v === "string") out[k] = v.slice(0, 1024);
  }
  return out;
}

/** Where the new lessons go: the module of the lesson launched from, or the course's last module. */
async function targetModule(db: Executor, tenantId: string, courseId: string, lessonId: string | null) {
  if (lessonId !== null) {
    const [row] = await db
      .select({ moduleId: lessons.moduleId })
      .from(lessons)
      .where(and(eq(lessons.tenantId, tenantId), eq(lessons.id, lessonId)));
    if (row !== undefined) return row.moduleId;
  }
  const [module] = await db
    .select({ id: courseModules.id })
    .from(courseModules)
    .where(and(eq(courseModules.tenantId, tenantId), eq(courseModules.courseId, courseId)))
    .orderBy(desc(courseModules.position), asc(courseModules.id))
    .limit(1);
  if (module === undefined) throw new AppError("conflict");
  return module.id;
}

export interface DeepLinkResult {
  lessonIds: string[];
  message: string | null;
}

export async function acceptDeepLink(
  deps: LtiDeps,
  client: OutboundClient,
  tenantId: string,
  token: string,
): Promise<DeepLinkResult> {
  const peek = peekClaims(token);
  const clientId = typeof peek.iss === "string" ? peek.iss : "";
  const db = deps.ctx.database.db;
  const tool = await repo.findByClientId(db, tenantId, clientId);
  if (tool === undefined || tool.status !== "active") throw unverified();
  const claims = await verifyToolJwt(client, tool, token, platformOf(deps.origin).issuer, {
    issuer: clientId,
  });
  if (claims[`${LTI}/message_type`] !== "LtiDeepLinkingResponse")
    throw validationError("JWT", "field.invalid");
  if (claims[`${LTI}/deployment_id`] !== tool.deploymentId) throw validationError("JWT", "field.invalid");
  const launchId = claims[`${DL}/data`];
  if (typeof launchId !== "string" || !isUuid(launchId)) throw validationError("JWT", "field.invalid");
  const items = (claims[`${DL}/content_items`] ?? []) as ContentItem[];
  if (!Array.isArray(items) || items.length > MAX_CONTENT_ITEMS)
    throw validationError("JWT", "field.invalid");
  const message = text(claims[`${DL}/msg`], 500) ?? text(claims[`${DL}/errormsg`], 500) ?? null;

  const lessonIds = await db.transaction(async (tx) => {
    // The launch's one response: a replayed or second response finds nothing to claim.
    const [launch] = await tx
      .update(ltiLaunches)
      .set({ returnedAt: sql`now()` as unknown as string })
      .where(
        and(
          eq(ltiLaunches.tenantId, tenantId),
          eq(ltiLaunches.id, launchId.toLowerCase()),
          eq(ltiLaunches.toolId, tool.id),
          eq(ltiLaunches.messageType, "LtiDeepLinkingRequest"),
          isNotNull(ltiLaunches.usedAt),
          isNull(ltiLaunches.returnedAt),
          sql`${ltiLaunches.usedAt} > now() - interval '1 hour'`,
        ),
      )
      .returning();
    if (launch === undefined || launch.courseId === null) throw validationError("JWT", "field.invalid");
    if (items.length === 0) return [];
    const moduleId = await targetModule(tx, tenantId, launch.courseId, launch.lessonId);
    const ids: string[] = [];
    for (const [i, item] of items.entries()) {
      const title = text(item.title, 200)?.trim() || tool.name;
      const url = text(item.url, 2048);
      if (url !== undefined && !isBrowserUrl(url))
        throw validationError(`content_items.${i}.url`, "field.https_url");
      if (item.type === "ltiResourceLink") {
        const body = `<p>${escapeHtml(text(item.text, 2000) ?? title)}</p>`;
        const lesson = await createLesson(tx, tenantId, moduleId, {
          title,
          type: "text",
          content: { bodyHtml: body },
        });
        await tx.insert(ltiLinks).values({
          tenantId,
          lessonId: lesson.id,
          toolId: tool.id,
          url: url ?? null,
          custom: customOf(item.custom),
        });
        ids.push(lesson.id);
      } else if (item.type === "link" && url !== undefined) {
        const lesson = await createLesson(tx, tenantId, moduleId, { title, type: "embed", content: { url } });
        ids.push(lesson.id);
      } else {
        throw validationError(`content_items.${i}.type`, "field.invalid");
      }
    }
    return ids;
  });
  return { lessonIds, message };
}

/** What the browser shows once the items are added: the count, and the tool's message if it sent one. */
export function donePage(count: number, message: string | null): string {
  const note = message === null ? "" : `<p>${escapeHtml(message)}</p>`;
  return (
    '<!doctype html><html><head><meta charset="utf-8"><title>LTI</title></head><body>' +
    `<p data-lessons="${count}">${count}</p>${note}</body></html>`
  );
}
