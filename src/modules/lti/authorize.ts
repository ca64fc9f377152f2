/**
 * A launch, step 2: the OIDC authentication request the tool sends the user's browser to. Checked against the
 * tool's registration and the launch it names (`lti_message_hint`), which it claims once; the tool's nonce is
 * stored with it and unique per tool, so neither a replayed request nor a reused nonce yields a second id_token.
 * The answer is the signed id_token, form-posted to the registered redirect URI.
 */
import { createHash } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { SignJWT } from "jose";
import { isUniqueViolation } from "../../db/errors.js";
import { courses, lessons, ltiLaunches, ltiLinks, users } from "../../db/schema/index.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError, validationError } from "../../platform/errors/app-error.js";
import { isUuid } from "../../platform/http/schemas.js";
import { type LaunchContext, launchClaims } from "./claims.js";
import { currentKey, ID_TOKEN_LIFETIME_S } from "./keys.js";
import { courseRoleOf } from "./launch.js";
import type { AuthorizeQueryType } from "./launch-schemas.js";
import type { PrivacyLevel } from "./schemas.js";
import * as repo from "./tool-repo.js";
import { LTI_PATH, type LtiDeps, platformOf } from "./tools.js";

const invalid = (field: string) => validationError(field, "field.invalid");

const EXPECTED = { scope: "openid", response_type: "id_token", response_mode: "form_post" } as const;

export interface SignedLaunch {
  redirectUri: string;
  idToken: string;
  state: string;
}

/** Marks the launch used and records the nonce, in one statement: only the first request gets the row. */
async function claimLaunch(
  deps: LtiDeps,
  tenantId: string,
  toolId: string,
  userId: string,
  q: AuthorizeQueryType,
) {
  if (!isUuid(q.lti_message_hint)) throw invalid("lti_message_hint");
  try {
    const [row] = await deps.ctx.database.db
      .update(ltiLaunches)
      .set({ usedAt: sql`now()` as unknown as string, nonce: q.nonce })
      .where(
        and(
          eq(ltiLaunches.tenantId, tenantId),
          eq(ltiLaunches.id, q.lti_message_hint.toLowerCase()),
          eq(ltiLaunches.toolId, toolId),
          eq(ltiLaunches.userId, userId),
          isNull(ltiLaunches.usedAt),
          gt(ltiLaunches.expiresAt, sql`now()`),
        ),
      )
      .returning();
    if (row === undefined) throw invalid("lti_message_hint");
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw invalid("nonce");
    throw error;
  }
}

async function personOf(deps: LtiDeps, tenantId: string, userId: string) {
  const [row] = await deps.ctx.database.db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  return row;
}

async function titles(deps: LtiDeps, tenantId: string, courseId: string, lessonId: string | null) {
  const db = deps.ctx.database.db;
  const [course] = await db
    .select({ id: courses.id, title: courses.title })
    .from(courses)
    .where(and(eq(courses.tenantId, tenantId), eq(courses.id, courseId)));
  if (lessonId === null) return { course, lesson: null };
  const [lesson] = await db
    .select({ id: lessons.id, title: lessons.title })
    .from(lessons)
    .where(and(eq(lessons.tenantId, tenantId), eq(lessons.id, lessonId)));
  return { course, lesson: lesson ?? null };
}

/** A lesson made by deep linking launches with its item's URL and custom parameters over the tool's. */
async function linkOf(deps: LtiDeps, tenantId: string, toolId: string, lessonId: string | null) {
  if (lessonId === null) return undefined;
  const [row] = await deps.ctx.database.db
    .select({ url: ltiLinks.url, custom: ltiLinks.custom })
    .from(ltiLinks)
    .where(
      and(eq(ltiLinks.tenantId, tenantId), eq(ltiLinks.lessonId, lessonId), eq(ltiLinks.toolId, toolId)),
    );
  return row === undefined ? undefined : { url: row.url ?? undefined, custom: row.custom };
}

export async function authorize(
  deps: LtiDeps,
  tenant: { id: string; name: string },
  principal: Principal,
  q: AuthorizeQueryType,
): Promise<SignedLaunch> {
  if (principal.kind !== "session") throw new AppError("session_required");
  for (const [field, value] of Object.entries(EXPECTED)) {
    if (q[field as keyof typeof EXPECTED] !== value) throw invalid(field);
  }
  if (q.prompt !== undefined && q.prompt !== "none") throw invalid("prompt");
  const tool = await repo.findByClientId(deps.ctx.database.db, tenant.id, q.client_id);
  if (tool === undefined || tool.status !== "active") throw invalid("client_id");
  if (!tool.redirectUris.includes(q.redirect_uri)) throw invalid("redirect_uri");
  // The browser's session must be the user the launch was started for.
  if (q.login_hint !== principal.userId) throw invalid("login_hint");
  if (q.lti_deployment_id !== undefined && q.lti_deployment_id !== tool.deploymentId) {
    throw invalid("lti_deployment_id");
  }
  const launch = await claimLaunch(deps, tenant.id, tool.id, principal.userId, q);
  const person = await personOf(deps, tenant.id, principal.userId);
  const courseId = launch.courseId ?? "";
  const { course, lesson } = await titles(deps, tenant.id, courseId, launch.lessonId);
  if (person === undefined || course === undefined) throw invalid("lti_message_hint");
  // Checked again now: an enrollment may have ended since the launch began.
  const courseRole = await courseRoleOf(deps.ctx.database.db, tenant.id, person.id, person.role, course.id);
  if (courseRole === undefined) throw new AppError("forbidden");
  const link = await linkOf(deps, tenant.id, tool.id, launch.lessonId);
  const platform = platformOf(deps.origin);
  const base = `${deps.origin}${LTI_PATH}`;
  const ctx: LaunchContext = {
    issuer: platform.issuer,
    tenant,
    tool: {
      clientId: tool.clientId,
      deploymentId: tool.deploymentId,
      targetLinkUri: link?.url ?? tool.targetLinkUri,
      scopes: tool.scopes,
      customParameters: { ...tool.customParameters, ...link?.custom },
      privacyLevel: tool.privacyLevel as PrivacyLevel,
    },
    launchId: launch.id,
    messageType: launch.messageType as LaunchContext["messageType"],
    course,
    lesson,
    person: {
      id: person.id,
      name: person.name,
      email: person.email,
      institutionRole: person.role,
      courseRole,
    },
    nonce: q.nonce,
    urls: {
      deepLinkReturn: `${base}/deep-links`,
      lineItems: `${base}/courses/${course.id}/line-items`,
      memberships: `${base}/courses/${course.id}/memberships`,
    },
  };
  const key = await currentKey(deps.ctx.database.db, deps.ctx.config, tenant.id);
  const idToken = await new SignJWT(launchClaims(ctx))
    .setProtectedHeader({ alg: "RS256", kid: key.kid, typ: "JWT" })
    .setIssuer(platform.issuer)
    .setAudience(tool.clientId)
    .setSubject(person.id)
    .setIssuedAt()
    .setExpirationTime(`${ID_TOKEN_LIFETIME_S}s`)
    .sign(key.key);
  return { redirectUri: q.redirect_uri, idToken, state: q.state };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page's one script, allowed by its hash: no inline code of any other kind runs. */
const SUBMIT_SCRIPT = "document.forms[0].submit();";
const SCRIPT_HASH = createHash("sha256").update(SUBMIT_SCRIPT).digest("base64");

/** The auto-submitting form_post page, and the headers that keep it to posting to the tool's own origin. */
export function formPostPage(action: string, fields: Record<string, string>) {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  const html =
    '<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">' +
    "<title>LTI</title></head><body>" +
    `<form method="post" action="${escapeHtml(action)}">${inputs}<noscript><button type="submit">Continue</button></noscript></form>` +
    `<script>${SUBMIT_SCRIPT}</script></body></html>`;
  const headers = {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy":
      `default-src 'none'; script-src 'sha256-${SCRIPT_HASH}'; form-action ${new URL(action).origin}; ` +
      "base-uri 'none'; frame-ancestors 'self'",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  };
  return { html, headers };
}
