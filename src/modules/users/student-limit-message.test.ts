import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { tenants, users } from "../../db/schema/index.js";
import type { Locale } from "../../locales/index.js";
import { useApi } from "../../test-support/api.js";
import { makeCourse } from "../../test-support/catalogue.js";
import { bearer, json, makeKey, makeTenant, makeUser, type TestTenant } from "../../test-support/harness.js";

/**
 * Issue 21, point 5: the student limit's refusal names the plan, the limit and how to raise it (a checkout from
 * the free plan, the billing portal from a paid one, nothing when no plan admits more), with the plan and the
 * limit in `details`, in every language.
 */
const { h } = useApi({
  env: {
    PLAN_STUDENT_LIMITS: JSON.stringify({ free: 1, mini: 2, growth: 3, pro_100: 4 }),
  },
});

async function fullTenant(plan: "free" | "mini" | "pro_100", students: number) {
  const t = await makeTenant(h);
  await h.database.db.update(tenants).set({ plan }).where(eq(tenants.id, t.id));
  for (let i = 0; i < students; i++) await makeUser(h, t, "student");
  return { t, key: await makeKey(h, t, ["users:write", "enrollments:write"]) };
}

const createStudent = (t: TestTenant, key: string, locale: Locale) =>
  h.inject({
    method: "POST",
    url: "/api/institution/users",
    headers: { host: t.host, "accept-language": locale, ...json, ...bearer(key) },
    payload: { name: "One too many", email: `late-${locale}@${t.slug}.test`, role: "student" },
  });

const studentCount = async (t: TestTenant) =>
  (
    await h.database.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, t.id), eq(users.role, "student")))
  ).length;

describe("on the free plan, in each language", () => {
  it.each([
    [
      "pt-BR",
      "O plano free admite 1 aluno e não tem mais vagas. Um administrador pode mudar a instituição para um " +
        "plano pago com POST /api/institution/billing/checkout.",
      "O plano da instituição é free.",
      "O plano admite no máximo 1 aluno.",
    ],
    [
      "en-US",
      "The free plan admits 1 student and has no seat left. An administrator can move the institution to a " +
        "paid plan with POST /api/institution/billing/checkout.",
      "The institution's plan is free.",
      "The plan admits at most 1 student.",
    ],
    [
      "es-ES",
      "El plan free admite 1 estudiante y no le quedan plazas. Un administrador puede pasar la institución a " +
        "un plan de pago con POST /api/institution/billing/checkout.",
      "El plan de la institución es free.",
      "El plan admite como máximo 1 estudiante.",
    ],
    [
      "fr-FR",
      "L’offre free admet 1 apprenant et n’a plus de place. Un administrateur peut passer l’établissement à " +
        "une offre payante avec POST /api/institution/billing/checkout.",
      "L’offre de l’établissement est free.",
      "L’offre admet au plus 1 apprenant.",
    ],
  ] as const)(
    "%s: names the plan, the limit and the checkout route",
    async (locale, message, plan, limit) => {
      const { t, key } = await fullTenant("free", 1);
      const res = await createStudent(t, key, locale);
      expect(res.statusCode).toBe(422);
      expect(res.headers["content-language"]).toBe(locale);
      expect(res.json()).toEqual({
        error: "student_limit_reached",
        message,
        details: [
          { field: "plan", message: plan },
          { field: "limit", message: limit },
        ],
      });
      expect(await studentCount(t)).toBe(1);
    },
  );
});

describe("on a paid plan", () => {
  it("points to the billing portal, where a live subscription changes plan, counting in the plural", async () => {
    const { t, key } = await fullTenant("mini", 2);
    const res = await createStudent(t, key, "en-US");
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: "student_limit_reached",
      message:
        "The mini plan admits 2 students and has no seat left. An administrator can move the institution to " +
        "a larger plan in the billing portal (POST /api/institution/billing/portal).",
      details: [
        { field: "plan", message: "The institution's plan is mini." },
        { field: "limit", message: "The plan admits at most 2 students." },
      ],
    });
  });

  it("says when no plan admits more students", async () => {
    const { t, key } = await fullTenant("pro_100", 4);
    const res = await createStudent(t, key, "pt-BR");
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(
      "O plano pro_100 admite 4 alunos e não tem mais vagas. Nenhum plano admite mais alunos; os limites são " +
        "definidos pelo operador do serviço (PLAN_STUDENT_LIMITS).",
    );
  });

  it("refuses an enrollment of staff as a student with the same envelope", async () => {
    const { t, key } = await fullTenant("mini", 2);
    const teacher = await makeUser(h, t, "teacher");
    const { courseId } = await makeCourse(h.database.db, t.id);
    const res = await h.inject({
      method: "POST",
      url: "/api/institution/enrollments",
      headers: { host: t.host, "accept-language": "es-ES", ...json, ...bearer(key) },
      payload: { userId: teacher.id, courseId, role: "student" },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: "student_limit_reached",
      message:
        "El plan mini admite 2 estudiantes y no le quedan plazas. Un administrador puede pasar la institución " +
        "a un plan mayor en el portal de facturación (POST /api/institution/billing/portal).",
      details: [
        { field: "plan", message: "El plan de la institución es mini." },
        { field: "limit", message: "El plan admite como máximo 2 estudiantes." },
      ],
    });
  });
});
