import { describe, expect, it } from "vitest";
import { callerFor, fieldsOf, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeKey, UNLIMITED_KEY } from "../../test-support/harness.js";
import { publishedCourse } from "../gradebook/test-fixtures.js";
import { parseCsv } from "./csv.js";

const { h, tenants } = useApi({ env: MANY_STUDENTS, tenants: 2 });
const [a, b] = tenants;
const keys: Record<string, string> = {};
const call = callerFor(h, () => ({ tenant: a, credential: keys.a as string }));

const HEADER =
  "Rubric Name,Criteria Name,Criteria Description,Criteria Enable Range,Rating Name,Rating Description," +
  "Rating Points,Rating Name,Rating Description,Rating Points,Rating Name,Rating Description,Rating Points";

describe("CSV import", () => {
  it("reads RFC 4180: quotes, doubled quotes, line breaks in quotes, CRLF, a BOM; null when a quote stays open", () => {
    expect(parseCsv('\uFEFFa,"b,c","d ""e"""\r\n\r\n"x\ny",z\n')).toEqual([
      { line: 1, fields: ["a", "b,c", 'd "e"'] },
      { line: 3, fields: ["x\ny", "z"] },
    ]);
    expect(parseCsv('a,"b')).toBeNull();
  });

  it("creates rubrics whose lines are all good, and reports two bad lines by line with their rubric's good line skipped", async () => {
    keys.a = await makeKey(h, a, ["rubrics:read", "rubrics:write"], UNLIMITED_KEY);
    const csv = [
      HEADER,
      'Redação,Argumentação,"Defende a tese, com fontes",false,Completo,,10,Parcial,,5,Ausente,,0',
      "Redação,Clareza,,true,Clara,,5,Confusa,,2,,,",
      "Oral,Postura,,,Boa,,4,Boa demais,,4,,,",
      "Oral,Voz,,,Alta,,3,Baixa,,x,,,",
      "Oral,Tempo,,,Dentro,,2,Fora,,0,,,",
      "",
    ].join("\r\n");
    const res = await call("POST", "/rubrics/import", { csv });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.summary).toEqual({ total: 5, created: 2, skipped: 1, failed: 2 });
    expect(body.results.map((r: { row: number; status: string }) => [r.row, r.status])).toEqual([
      [2, "created"],
      [3, "created"],
      [4, "failed"],
      [5, "failed"],
      [6, "skipped"],
    ]);
    expect(body.results[2].error).toMatchObject({
      error: "validation_failed",
      details: [{ field: "ratings[1].points" }],
    });
    expect(body.results[3].error.details.map((d: { field: string }) => d.field)).toEqual([
      "ratings[1].points",
    ]);
    expect(body.results[4].reason).toBe("rubric_has_errors");
    expect(body.rubricIds).toHaveLength(1);
    const made = (await call("GET", `/rubrics/${body.rubricIds[0]}`)).json();
    expect(made).toMatchObject({ title: "Redação", scope: "institution", pointsPossible: 15, version: 1 });
    expect(made.criteria[0]).toMatchObject({
      longDescription: "Defende a tese, com fontes",
      useRange: false,
    });
    expect(made.criteria[1]).toMatchObject({ description: "Clareza", useRange: true, points: 5 });
    expect((await call("GET", "/rubrics?search=oral")).json().pagination.total).toBe(0);
  });

  it("imports course rubrics into a course of the tenant only, and refuses CSV without its columns", async () => {
    keys.b = await makeKey(h, b, ["rubrics:read", "rubrics:write"], UNLIMITED_KEY);
    const csv = `${HEADER}\nProjeto,Código,,,Bom,,3,Ruim,,0,,,\n`;
    const foreign = await publishedCourse(h.database.db, a.id);
    const other = await call("POST", "/rubrics/import", { csv, courseId: foreign }, keys.b, b);
    expect(other.statusCode).toBe(400);
    expect(fieldsOf(other)).toEqual(["courseId"]);
    const course = await publishedCourse(h.database.db, b.id);
    const ok = await call("POST", "/rubrics/import", { csv, courseId: course }, keys.b, b);
    expect(ok.json().summary.created).toBe(1);
    const made = (await call("GET", `/rubrics/${ok.json().rubricIds[0]}`, undefined, keys.b, b)).json();
    expect(made).toMatchObject({ scope: "course", courseId: course });
    const headless = await call("POST", "/rubrics/import", { csv: "Name,Points\nA,1\n" }, keys.b, b);
    expect(fieldsOf(headless)).toEqual(["csv"]);
    const open = await call("POST", "/rubrics/import", { csv: `${HEADER}\n"Projeto,` }, keys.b, b);
    expect(fieldsOf(open)).toEqual(["csv"]);
  });
});
