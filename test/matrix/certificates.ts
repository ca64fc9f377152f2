import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { certificates, certificateTemplates } from "../../src/db/schema/index.js";
import { issueCertificate } from "../../src/modules/certificates/service.js";
import { createTemplate } from "../../src/modules/certificates/template-service.js";
import { enrollDirectly, makeCourse } from "../../src/test-support/catalogue.js";
import { type Harness, makeUser, type TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

type Params = string | Record<string, string>;
const idOf = (params: Params) => (typeof params === "string" ? params : (params.id as string));

const LAYOUT = { title: "Certificado", body: "{{student.name}} concluiu {{course.title}}." };

const template = async (h: Harness, t: TestTenant) =>
  (await createTemplate(h.database.db, t.id, { name: "Matrix", layout: LAYOUT })).id;

/** A certificate of a teacher's enrollment: the matrix's tenants are on the free plan's student limit. */
const certificate = async (h: Harness, t: TestTenant) => {
  const templateId = await template(h, t);
  const { courseId } = await makeCourse(h.database.db, t.id, [{ lessons: [{}] }]);
  const user = await makeUser(h, t, "teacher");
  await enrollDirectly(h.database.db, t.id, user.id, courseId);
  const issued = await issueCertificate(
    h.database.db,
    t.id,
    { templateId, userId: user.id, courseId },
    { kind: "system" },
    `http://${t.host}`,
  );
  return issued.id;
};

const templateRow = async (h: Harness, t: TestTenant, params: Params) =>
  (
    await h.database.db
      .select()
      .from(certificateTemplates)
      .where(and(eq(certificateTemplates.tenantId, t.id), eq(certificateTemplates.id, idOf(params))))
  )[0];

const certificateRow = async (h: Harness, t: TestTenant, params: Params) =>
  (
    await h.database.db
      .select()
      .from(certificates)
      .where(and(eq(certificates.tenantId, t.id), eq(certificates.id, idOf(params))))
  )[0];

const templateObject = { makeObject: template, snapshot: templateRow };
const certificateObject = { makeObject: certificate, snapshot: certificateRow };

export const fixtures: Fixtures = {
  "GET /api/institution/certificate-templates": {},
  "POST /api/institution/certificate-templates": { body: { name: "Matrix", layout: LAYOUT } },
  "GET /api/institution/certificate-templates/:id": templateObject,
  "PATCH /api/institution/certificate-templates/:id": { body: { name: "Renamed" }, ...templateObject },
  "GET /api/institution/certificates": {},
  "POST /api/institution/certificates": {
    body: { templateId: randomUUID(), userId: randomUUID(), courseId: randomUUID() },
  },
  "GET /api/institution/certificates/:id": certificateObject,
  "POST /api/institution/certificates/:id/revoke": { body: { reason: "Matrix" }, ...certificateObject },
  "GET /api/institution/certificates/:id/pdf": certificateObject,
};
