import { isPlan, type Plan, type PlanConfig } from "../../config/plans.js";
import type { Executor } from "../../db/client.js";
import type { Locale } from "../../locales/index.js";
import { notFound, validationError } from "../../platform/errors/app-error.js";
import type { TenantResolver } from "../../platform/tenancy/resolver.js";
import * as repo from "./repo.js";
import { PROFILE_DOMAINS_SHOWN, type ProfileRecord, type UpdateProfileInput } from "./schemas.js";
import { canonicalTimezone } from "./timezone.js";

async function profileOf(db: Executor, plans: PlanConfig, tenant: repo.TenantRow): Promise<ProfileRecord> {
  const customDomains = await repo.profileDomains(db, tenant.id, PROFILE_DOMAINS_SHOWN);
  return {
    ...tenant,
    defaultLocale: tenant.defaultLocale as Locale,
    plan: tenant.plan as Plan,
    // The same figure users/student-limit.ts enforces.
    limits: { students: isPlan(tenant.plan) ? plans.studentLimits[tenant.plan] : null },
    customDomains,
  };
}

export async function getProfile(db: Executor, plans: PlanConfig, tenantId: string): Promise<ProfileRecord> {
  const tenant = await repo.findTenant(db, tenantId);
  if (tenant === undefined) throw notFound();
  return profileOf(db, plans, tenant);
}

export async function updateProfile(
  db: Executor,
  plans: PlanConfig,
  tenants: TenantResolver,
  tenantId: string,
  input: UpdateProfileInput,
): Promise<ProfileRecord> {
  const changes = { ...input };
  if (input.timezone !== undefined) {
    const timezone = canonicalTimezone(input.timezone);
    if (timezone === undefined) throw validationError("timezone", "field.timezone");
    changes.timezone = timezone;
  }
  const tenant = await repo.updateTenant(db, tenantId, changes);
  if (tenant === undefined) throw notFound();
  // The host → tenant cache carries the name; every process drops its copy rather than serve the old one.
  if (input.name !== undefined) await tenants.changed(tenantId);
  return profileOf(db, plans, tenant);
}
