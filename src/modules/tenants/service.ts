import { eq } from "drizzle-orm";
import type { PlanConfig } from "../../config/plans.js";
import type { Db } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import { tenants } from "../../db/schema/index.js";
import { AppError } from "../../platform/errors/app-error.js";
import { setPassword } from "../auth/service.js";
import { createUser } from "../users/service.js";

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/;
/** Host labels the platform keeps for itself. */
const RESERVED_SLUGS = new Set(["www", "api", "app", "admin", "docs", "mail", "status", "billing", "static"]);

export interface NewTenant {
  slug: string;
  name: string;
  adminEmail: string;
  adminPassword: string;
  adminName?: string;
}

export interface CreatedTenant {
  tenantId: string;
  slug: string;
  adminUserId: string;
}

/** A tenant and its first administrator, in one transaction: either both exist afterwards or neither does. */
export async function createTenant(db: Db, plans: PlanConfig, input: NewTenant): Promise<CreatedTenant> {
  const slug = input.slug.toLowerCase();
  if (!SLUG_PATTERN.test(slug) || RESERVED_SLUGS.has(slug)) {
    throw new AppError("validation_failed", { details: [{ field: "slug", key: "field.pattern" }] });
  }
  if (input.adminPassword.length < 8) {
    throw new AppError("validation_failed", {
      details: [{ field: "adminPassword", key: "field.min_length", params: { limit: 8 } }],
    });
  }
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(tenants)
      .values({ slug, name: input.name })
      .returning({ id: tenants.id })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw new AppError("conflict");
        throw err;
      });
    const tenantId = (rows[0] as { id: string }).id;
    const admin = await createUser(
      tx,
      plans,
      tenantId,
      { kind: "system" },
      {
        name: input.adminName ?? input.name,
        email: input.adminEmail,
        role: "institution_admin",
      },
    );
    await setPassword(tx, tenantId, admin.id, input.adminPassword);
    return { tenantId, slug, adminUserId: admin.id };
  });
}

export async function findTenantBySlug(db: Db, slug: string) {
  const rows = await db.select().from(tenants).where(eq(tenants.slug, slug));
  return rows[0];
}
