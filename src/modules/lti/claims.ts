/**
 * The claims of a launch's id_token (LTI 1.3 Core 5.3-5.4, Deep Linking 2.0 4.4, AGS 3.1, NRPS 3.6). The
 * privacy level decides which personal claims go out; custom parameters are substituted here with the same rule.
 */
import type { PrivacyLevel } from "./schemas.js";

const LTI = "https://purl.imsglobal.org/spec/lti/claim";
const ROLE = "http://purl.imsglobal.org/vocab/lis/v2";

export interface LaunchPerson {
  id: string;
  name: string;
  email: string;
  institutionRole: string;
  courseRole: "admin" | "teacher" | "student" | "observer";
}

export interface LaunchContext {
  issuer: string;
  tenant: { id: string; name: string };
  tool: {
    clientId: string;
    deploymentId: string;
    targetLinkUri: string;
    scopes: string[];
    customParameters: Record<string, string>;
    privacyLevel: PrivacyLevel;
  };
  launchId: string;
  messageType: "LtiResourceLinkRequest" | "LtiDeepLinkingRequest";
  course: { id: string; title: string };
  lesson: { id: string; title: string } | null;
  person: LaunchPerson;
  nonce: string;
  /** Where the tool posts deep-linking results and calls AGS and NRPS. */
  urls: { deepLinkReturn: string; lineItems: string; memberships: string };
}

const sendsName = (level: PrivacyLevel) => level === "name_only" || level === "public";
const sendsEmail = (level: PrivacyLevel) => level === "email_only" || level === "public";

function splitName(full: string): { given: string; family: string } {
  const parts = full.trim().split(/\s+/);
  if (parts.length < 2) return { given: full.trim(), family: "" };
  return { given: parts.slice(0, -1).join(" "), family: parts[parts.length - 1] ?? "" };
}

export function rolesOf(person: LaunchPerson): string[] {
  const roles: string[] = [];
  if (person.courseRole === "admin") roles.push(`${ROLE}/membership#Administrator`);
  if (person.courseRole === "teacher") roles.push(`${ROLE}/membership#Instructor`);
  if (person.courseRole === "student") roles.push(`${ROLE}/membership#Learner`);
  if (person.courseRole === "observer") roles.push(`${ROLE}/membership#Mentor`);
  if (person.institutionRole === "institution_admin") roles.push(`${ROLE}/institution/person#Administrator`);
  if (person.institutionRole === "teacher") roles.push(`${ROLE}/institution/person#Faculty`);
  if (person.institutionRole === "student") roles.push(`${ROLE}/institution/person#Student`);
  return roles;
}

/** The resource link's id: the lesson's, or one per tool and course for a launch from the course itself. */
export function resourceLinkIdOf(ctx: Pick<LaunchContext, "lesson" | "course" | "tool">): string {
  return ctx.lesson?.id ?? `course-${ctx.course.id}`;
}

/**
 * Substitution variables (LTI Core appendix C). A personal variable the privacy level does not send stays as
 * written, so a tool cannot learn through `custom` what the claims withhold.
 */
export function substitute(ctx: LaunchContext): Record<string, string> {
  const level = ctx.tool.privacyLevel;
  const { given, family } = splitName(ctx.person.name);
  const values: Record<string, string | undefined> = {
    "$User.id": ctx.person.id,
    "$Context.id": ctx.course.id,
    "$Context.title": ctx.course.title,
    "$CourseSection.sourcedId": ctx.course.id,
    "$ResourceLink.id": resourceLinkIdOf(ctx),
    "$User.username": sendsEmail(level) ? ctx.person.email : undefined,
    "$Person.email.primary": sendsEmail(level) ? ctx.person.email : undefined,
    "$Person.name.full": sendsName(level) ? ctx.person.name : undefined,
    "$Person.name.given": sendsName(level) ? given : undefined,
    "$Person.name.family": sendsName(level) ? family : undefined,
  };
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(ctx.tool.customParameters)) {
    out[key] = values[value] ?? value;
  }
  return out;
}

export function personalClaims(ctx: LaunchContext): Record<string, string> {
  const level = ctx.tool.privacyLevel;
  const claims: Record<string, string> = {};
  if (sendsName(level)) {
    const { given, family } = splitName(ctx.person.name);
    Object.assign(claims, { name: ctx.person.name, given_name: given, family_name: family });
  }
  if (sendsEmail(level)) claims.email = ctx.person.email;
  return claims;
}

function serviceClaims(ctx: LaunchContext): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  const ags = ctx.tool.scopes.filter((s) => s.includes("/lti-ags/"));
  if (ags.length > 0) {
    claims["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"] = {
      scope: ags,
      lineitems: ctx.urls.lineItems,
    };
  }
  if (ctx.tool.scopes.some((s) => s.includes("/lti-nrps/"))) {
    claims["https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"] = {
      context_memberships_url: ctx.urls.memberships,
      service_versions: ["2.0"],
    };
  }
  return claims;
}

/** Every claim but the registered ones (iss, aud, iat, exp) that the signer sets. */
export function launchClaims(ctx: LaunchContext): Record<string, unknown> {
  const claims: Record<string, unknown> = {
    nonce: ctx.nonce,
    azp: ctx.tool.clientId,
    ...personalClaims(ctx),
    [`${LTI}/message_type`]: ctx.messageType,
    [`${LTI}/version`]: "1.3.0",
    [`${LTI}/deployment_id`]: ctx.tool.deploymentId,
    [`${LTI}/target_link_uri`]: ctx.tool.targetLinkUri,
    [`${LTI}/roles`]: rolesOf(ctx.person),
    [`${LTI}/context`]: {
      id: ctx.course.id,
      label: ctx.course.title.slice(0, 60),
      title: ctx.course.title,
      type: ["http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"],
    },
    [`${LTI}/tool_platform`]: { guid: ctx.tenant.id, name: ctx.tenant.name, product_family_code: "aula" },
    [`${LTI}/launch_presentation`]: { document_target: "window", locale: "pt-BR" },
    [`${LTI}/custom`]: substitute(ctx),
    ...serviceClaims(ctx),
  };
  if (ctx.messageType === "LtiResourceLinkRequest") {
    claims[`${LTI}/resource_link`] = {
      id: resourceLinkIdOf(ctx),
      title: ctx.lesson?.title ?? ctx.course.title,
    };
  } else {
    claims["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"] = {
      deep_link_return_url: ctx.urls.deepLinkReturn,
      accept_types: ["ltiResourceLink", "link"],
      accept_presentation_document_targets: ["iframe", "window"],
      accept_multiple: true,
      auto_create: true,
      data: ctx.launchId,
    };
  }
  return claims;
}
