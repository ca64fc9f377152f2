import { randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { emailMessages, emailTemplates } from "../../src/db/schema/index.js";
import { createCustomTemplate, mailDepsOf, sendMessages } from "../../src/modules/email/service.js";
import { type Harness, makeUser, type TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

const draft = {
  locale: "pt-BR",
  subject: "Matriz",
  bodyHtml: "<p>Olá {{name}}</p>",
  bodyText: "Olá {{name}}",
} as const;

/**
 * Built-in keys exist in every institution, so the object of a `:key` route is one of the tenant's own
 * `custom.*` templates: under another institution's host it is 404, like an unknown key.
 */
const customTemplate = async (h: Harness, t: TestTenant) => {
  const key = `custom.matrix-${randomBytes(5).toString("hex")}`;
  await createCustomTemplate(h.database.db, t.id, { key, ...draft });
  return { key };
};

const templateRows = async (h: Harness, t: TestTenant, params: string | Record<string, string>) => {
  const key = typeof params === "string" ? params : (params.key as string);
  const rows = await h.database.db
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.tenantId, t.id), eq(emailTemplates.key, key)))
    .orderBy(asc(emailTemplates.locale));
  return rows.length === 0 ? undefined : rows;
};

const message = async (h: Harness, t: TestTenant) => {
  const user = await makeUser(h, t, "student");
  const sent = await sendMessages(h.database.db, mailDepsOf(h.config, `http://${t.host}`), t.id, {
    ...draft,
    locale: "pt-BR",
    userIds: [user.id],
  });
  return sent.messageIds[0] as string;
};

const messageRow = async (h: Harness, t: TestTenant, params: string | Record<string, string>) => {
  const id = typeof params === "string" ? params : (params.id as string);
  const [row] = await h.database.db
    .select()
    .from(emailMessages)
    .where(and(eq(emailMessages.tenantId, t.id), eq(emailMessages.id, id)));
  return row;
};

const template = { makeObject: customTemplate, snapshot: templateRows };

export const fixtures: Fixtures = {
  // A list, but of keys every institution has (the six built-in ones in four locales): they carry no id to
  // tell two institutions' apart, so the generic "never in A's list" check cannot apply. email.test.ts proves
  // that one institution's overrides and custom templates never show in another's list.
  "GET /api/institution/email/templates": { single: true },
  "POST /api/institution/email/templates": {
    body: { key: `custom.matrix-${randomBytes(5).toString("hex")}`, ...draft },
  },
  "GET /api/institution/email/templates/:key": template,
  "PUT /api/institution/email/templates/:key": { body: { ...draft }, ...template },
  "DELETE /api/institution/email/templates/:key": template,
  "POST /api/institution/email/templates/:key/preview": { body: { locale: "pt-BR" }, ...template },
  "GET /api/institution/email/messages": {},
  "POST /api/institution/email/messages": {
    body: { subject: "Matriz", bodyHtml: "<p>Oi</p>", bodyText: "Oi", userIds: [randomUUID()] },
  },
  "GET /api/institution/email/messages/:id": { makeObject: message, snapshot: messageRow },
};
