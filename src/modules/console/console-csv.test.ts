import { describe, expect, it } from "vitest";
import { parseCsv, usersOfCsv } from "../../../console/src/csv.js";

/** The console's CSV reader, on what spreadsheets write. */
describe("the console's CSV reader", () => {
  it("reads quoted fields with separators, doubled quotes and line breaks, CRLF or LF, and a BOM", () => {
    const text = '\uFEFFname,email\r\n"Souza, Ana ""Aninha""",ana@x.test\n"Two\nlines",b@x.test\r\n\r\n';
    expect(parseCsv(text)).toEqual([
      ["name", "email"],
      ['Souza, Ana "Aninha"', "ana@x.test"],
      ["Two\nlines", "b@x.test"],
    ]);
  });

  it("takes semicolons when the header uses them, as spreadsheets in pt-BR, es-ES and fr-FR write", () => {
    expect(parseCsv("name;email\nLima, Bruno;b@x.test")).toEqual([
      ["name", "email"],
      ["Lima, Bruno", "b@x.test"],
    ]);
  });

  it("finds name, email and role by the header in any order and case, trimmed; none without them", () => {
    expect(usersOfCsv("Role,EMAIL,Name\n teacher , a@x.test ,Ana\nstudent,b@x.test")).toEqual([
      { row: 1, name: "Ana", email: "a@x.test", role: "teacher" },
      { row: 2, name: "", email: "b@x.test", role: "student" },
    ]);
    expect(usersOfCsv("name,email\nAna,a@x.test")).toBeUndefined();
    expect(usersOfCsv("")).toBeUndefined();
  });
});
