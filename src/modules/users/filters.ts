import { and, eq, type SQL, sql } from "drizzle-orm";
import { type Bindable, likeContains } from "../../db/page-query.js";
import { qualified } from "../../db/qualified.js";
import { classGroupMembers, tagAssignments, userProfileValues, users } from "../../db/schema/index.js";
import type { Role } from "../../platform/auth/types.js";

/** The users list's filters, each a predicate an index answers, bound as prepared-statement parameters. */

const searchable = sql`aula_fold(${users.name} || ' ' || ${users.email})`;

export interface UserFilter {
  search?: string;
  role?: Role;
  status?: string;
  classGroupId?: string;
  tag?: string;
  email?: string;
  createdSince?: string;
  /** Custom profile values (profile-fields' `profileFilters`), combined with AND. */
  profile?: readonly { fieldId: string; eq?: string; has?: string }[];
}

const MAX_PROFILE_FILTERS = 3;

type Bound = { [K in keyof ReturnType<typeof bindings>]?: Bindable };

/** Each filter is a predicate an index answers: memberships and tag assignments are probed per user by key. */
export function where(tenantId: Bindable, filter: Bound): SQL {
  return and(
    eq(users.tenantId, tenantId),
    filter.role === undefined ? undefined : eq(users.role, filter.role),
    filter.status === undefined ? undefined : eq(users.status, filter.status),
    filter.pattern === undefined ? undefined : sql`${searchable} LIKE aula_fold(${filter.pattern})`,
    filter.email === undefined ? undefined : sql`lower(${users.email}) = lower(${filter.email})`,
    filter.createdSince === undefined
      ? undefined
      : sql`${users.createdAt} >= ${filter.createdSince}::timestamptz`,
    filter.classGroupId === undefined
      ? undefined
      : sql`EXISTS (SELECT 1 FROM ${classGroupMembers} m WHERE m.tenant_id = ${qualified(users.tenantId)}
          AND m.class_group_id = ${filter.classGroupId}::uuid AND m.user_id = ${qualified(users.id)})`,
    filter.tag === undefined
      ? undefined
      : sql`EXISTS (SELECT 1 FROM ${tagAssignments} a WHERE a.tenant_id = ${qualified(users.tenantId)}
          AND a.tag_id = ${filter.tag}::uuid AND a.resource_type = 'user' AND a.resource_id = ${qualified(users.id)})`,
    ...profilePredicates(filter),
  ) as SQL;
}

/**
 * `profile.<key>=value`: the user holds that value (scalar fields, by canonical text through
 * user_profile_values_match_idx) or has that choice among theirs (multiselect).
 */
function profilePredicates(filter: Bound): (SQL | undefined)[] {
  const out: (SQL | undefined)[] = [];
  for (let i = 0; i < MAX_PROFILE_FILTERS; i++) {
    const f = filter as Record<string, Bindable | undefined>;
    const field = f[`profileField${i}`];
    if (field === undefined) continue;
    const eqValue = f[`profileEq${i}`];
    const hasValue = f[`profileHas${i}`];
    const match =
      eqValue !== undefined
        ? sql`v.match_key = ${eqValue}`
        : sql`v.value @> jsonb_build_array(${hasValue}::text)`;
    out.push(sql`EXISTS (SELECT 1 FROM ${userProfileValues} v WHERE v.tenant_id = ${qualified(users.tenantId)}
      AND v.field_id = ${field}::uuid AND v.user_id = ${qualified(users.id)} AND ${match})`);
  }
  return out;
}

export function bindings(filter: UserFilter) {
  const profile: Record<string, string | undefined> = {};
  filter.profile?.slice(0, MAX_PROFILE_FILTERS).forEach((p, i) => {
    profile[`profileField${i}`] = p.fieldId;
    profile[`profileEq${i}`] = p.eq;
    profile[`profileHas${i}`] = p.has;
  });
  return {
    ...profile,
    role: filter.role,
    status: filter.status,
    pattern: filter.search === undefined ? undefined : likeContains(filter.search),
    email: filter.email,
    createdSince: filter.createdSince,
    classGroupId: filter.classGroupId,
    tag: filter.tag,
  };
}
