import { sql } from "drizzle-orm";
import { ListMembersQuery } from "../../modules/classes/member-schemas.js";
import { ListClassesQuery } from "../../modules/classes/schemas.js";
import { ListMessagesQuery } from "../../modules/email/message-schemas.js";
import { ListInvitesQuery } from "../../modules/invites/schemas.js";
import { ListAssignmentsQuery, ListTagsQuery } from "../../modules/tags/schemas.js";
import { ListUsersQuery } from "../../modules/users/schemas.js";
import {
  AT,
  analyze,
  insertCourseTree,
  insertedId,
  insertUsers,
  type ListFixture,
  rare,
  rows,
  sortQueries,
} from "./types.js";

/** Users, classes and their members, invitations, e-mail messages, tags and what they are attached to. */

/** Each user has a campus: "main" for almost all, "north" for the rare ones. */
export const users: ListFixture = {
  name: "users",
  path: "/api/institution/users",
  scopes: ["users:read"],
  tables: ["users", "user_profile_values"],
  async seed(db, t, size) {
    await insertUsers(db, t, size);
    const fieldId = await insertedId(
      db,
      sql`INSERT INTO profile_fields (tenant_id, key, label, type, position)
          VALUES (${t.id}::uuid, 'campus', 'Campus', 'text', 1) RETURNING id`,
    );
    await db.execute(sql`
      INSERT INTO user_profile_values (tenant_id, user_id, field_id, value, match_key)
      SELECT u.tenant_id, u.id, ${fieldId}::uuid, to_jsonb(c.v), c.v
      FROM users u, LATERAL (SELECT CASE WHEN u.name LIKE 'Quixotic%' THEN 'north' ELSE 'main' END AS v) c
      WHERE u.tenant_id = ${t.id}::uuid AND u.role = 'student'`);
    await analyze(db, "users", "user_profile_values");
    return {};
  },
  queries: [
    ...sortQueries(ListUsersQuery),
    { name: "search rare", query: "search=quixotic", rare: true, filtered: true },
    { name: "search common", query: "search=member", filtered: true },
    { name: "profile rare", query: "profile.campus=north", rare: true, filtered: true, counter: true },
    { name: "profile common", query: "profile.campus=main", filtered: true, counter: true },
  ],
};

export const classes: ListFixture = {
  name: "classes",
  path: "/api/institution/classes",
  scopes: ["classes:read"],
  tables: ["class_groups"],
  async seed(db, t, size) {
    const { courseId } = await insertCourseTree(db, t);
    await db.execute(sql`
      INSERT INTO class_groups (tenant_id, name, code, status, course_ids, created_at, updated_at)
      SELECT ${t.id}::uuid, CASE WHEN ${rare(size)} THEN 'Quixotic Class ' || i ELSE 'Class ' || i END, 'C' || i,
             CASE WHEN ${rare(size)} THEN 'archived' ELSE 'active' END,
             CASE WHEN ${rare(size)} THEN ARRAY[${courseId}::uuid] ELSE '{}'::uuid[] END, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "class_groups");
    return { courseId };
  },
  queries: [
    ...sortQueries(ListClassesQuery),
    { name: "search rare", query: "search=quixotic", rare: true, filtered: true },
    { name: "search common", query: "search=class", filtered: true },
    { name: "status rare", query: "status=archived", rare: true, filtered: true },
    { name: "status common", query: "status=active", filtered: true },
    { name: "courseId (rare)", query: "courseId={courseId}", rare: true, filtered: true, counter: true },
  ],
};

/** One class of `size` members, the rare ones its teachers. */
export const members: ListFixture = {
  name: "class members",
  path: "/api/institution/classes/:id/members",
  scopes: ["classes:read"],
  tables: ["class_group_members", "users"],
  async seed(db, t, size) {
    const classId = await insertedId(
      db,
      sql`INSERT INTO class_groups (tenant_id, name, code) VALUES (${t.id}::uuid, 'Big class', 'BIG') RETURNING id`,
    );
    await insertUsers(db, t, size);
    await db.execute(sql`
      INSERT INTO class_group_members (tenant_id, class_group_id, user_id, role, created_at)
      SELECT ${t.id}::uuid, ${classId}::uuid, u.id,
             CASE WHEN u.name LIKE 'Quixotic%' THEN 'teacher' ELSE 'student' END, u.created_at
      FROM users u WHERE u.tenant_id = ${t.id}::uuid AND u.role = 'student'`);
    await analyze(db, "users", "class_group_members");
    return { id: classId };
  },
  queries: [
    ...sortQueries(ListMembersQuery),
    { name: "role rare", query: "role=teacher", rare: true, filtered: true, counter: true },
    { name: "role common", query: "role=student", filtered: true, counter: true },
  ],
};

export const invites: ListFixture = {
  name: "invites",
  path: "/api/institution/invites",
  scopes: ["invites:read"],
  tables: ["invites"],
  async seed(db, t, size) {
    await db.execute(sql`
      INSERT INTO invites (tenant_id, email, name, role, token_hash, status, expires_at, created_at, updated_at)
      SELECT ${t.id}::uuid, 'invitee' || i || '@' || ${t.slug} || '.test', 'Invitee ' || i, 'student',
             md5(${t.id} || '-' || i), CASE WHEN ${rare(size)} THEN 'revoked' ELSE 'pending' END,
             now() + interval '30 days', ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "invites");
    return { email: `invitee7@${t.slug}.test` };
  },
  queries: [
    ...sortQueries(ListInvitesQuery),
    { name: "status rare", query: "status=revoked", rare: true, filtered: true },
    { name: "status common", query: "status=pending", filtered: true },
    { name: "email (one)", query: "email={email}", rare: true, filtered: true },
  ],
};

/** `size` messages sent to the administrator's address, the rare ones failed and of a custom template. */
export const messages: ListFixture = {
  name: "email messages",
  path: "/api/institution/email/messages",
  scopes: ["settings:read"],
  tables: ["email_messages"],
  async seed(db, t, size) {
    await insertUsers(db, t, 1, "recipient");
    const [user] = await rows<{ id: string }>(
      db,
      sql`SELECT id FROM users WHERE tenant_id = ${t.id}::uuid AND role = 'student'`,
    );
    await db.execute(sql`
      INSERT INTO email_messages (tenant_id, message_id, template_key, locale, to_user_id, to_email, subject,
                                  body_sealed, status, triggered_by, sent_at, created_at, updated_at)
      SELECT ${t.id}::uuid, '<' || ${t.id} || '.' || i || '@aula.test>',
             CASE WHEN ${rare(size)} THEN 'custom.quixotic' ELSE 'invitation' END, 'en-US',
             CASE WHEN ${rare(size)} THEN ${user?.id}::uuid END, 'someone' || i || '@example.com', 'Subject ' || i, '',
             CASE WHEN ${rare(size)} THEN 'failed' ELSE 'sent' END, 'system', ${AT}, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    const [latest] = await rows<{ since: string }>(
      db,
      sql`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS since
          FROM email_messages WHERE tenant_id = ${t.id}::uuid ORDER BY created_at DESC LIMIT 1 OFFSET 2`,
    );
    await analyze(db, "email_messages");
    return { userId: user?.id ?? "", since: latest?.since ?? "" };
  },
  queries: [
    ...sortQueries(ListMessagesQuery),
    { name: "status rare", query: "status=failed", rare: true, filtered: true, counter: true },
    { name: "status common", query: "status=sent", filtered: true, counter: true },
    { name: "userId (rare)", query: "userId={userId}", rare: true, filtered: true },
    {
      name: "templateKey rare",
      query: "templateKey=custom.quixotic",
      rare: true,
      filtered: true,
      counter: true,
    },
    { name: "templateKey common", query: "templateKey=invitation", filtered: true, counter: true },
    { name: "since (the last three)", query: "since={since}", rare: true, filtered: true },
  ],
};

export const tags: ListFixture = {
  name: "tags",
  path: "/api/institution/tags",
  scopes: ["tags:read"],
  tables: ["tags"],
  async seed(db, t, size) {
    await db.execute(sql`
      INSERT INTO tags (tenant_id, name, slug, applies_to, created_at, updated_at)
      SELECT ${t.id}::uuid, CASE WHEN ${rare(size)} THEN 'Quixotic ' || i ELSE 'Topic ' || i END, 'topic-' || i,
             CASE WHEN ${rare(size)} THEN ARRAY['question'] ELSE ARRAY['user', 'course'] END, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "tags");
    return {};
  },
  queries: [
    ...sortQueries(ListTagsQuery),
    { name: "search rare", query: "search=quixotic", rare: true, filtered: true },
    { name: "search common", query: "search=topic", filtered: true },
  ],
};

/** One tag on `size` users, the rare ones courses instead. */
export const tagResources: ListFixture = {
  name: "tag resources",
  path: "/api/institution/tags/:id/resources",
  scopes: ["tags:read"],
  tables: ["tag_assignments"],
  async seed(db, t, size) {
    const tagId = await insertedId(
      db,
      sql`INSERT INTO tags (tenant_id, name, slug, applies_to)
          VALUES (${t.id}::uuid, 'Everywhere', 'everywhere', ARRAY['user', 'course']) RETURNING id`,
    );
    await insertUsers(db, t, size);
    await db.execute(sql`
      INSERT INTO tag_assignments (tenant_id, tag_id, resource_type, resource_id, created_at)
      SELECT ${t.id}::uuid, ${tagId}::uuid, 'user', u.id, u.created_at
      FROM users u WHERE u.tenant_id = ${t.id}::uuid AND u.role = 'student' AND u.name NOT LIKE 'Quixotic%'`);
    await db.execute(sql`
      INSERT INTO courses (tenant_id, title, status)
      SELECT ${t.id}::uuid, 'Tagged course ' || i, 'published'
      FROM generate_series(1, 10) AS i`);
    await db.execute(sql`
      INSERT INTO tag_assignments (tenant_id, tag_id, resource_type, resource_id, created_at)
      SELECT ${t.id}::uuid, ${tagId}::uuid, 'course', c.id, c.created_at
      FROM courses c WHERE c.tenant_id = ${t.id}::uuid`);
    await analyze(db, "users", "courses", "tag_assignments");
    return { id: tagId };
  },
  queries: [
    ...sortQueries(ListAssignmentsQuery),
    { name: "resourceType rare", query: "resourceType=course", rare: true, filtered: true, counter: true },
    { name: "resourceType common", query: "resourceType=user", filtered: true, counter: true },
  ],
};

export const PEOPLE: ListFixture[] = [users, classes, members, invites, messages, tags, tagResources];
