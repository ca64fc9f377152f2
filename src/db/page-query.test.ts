/**
 * A list's filter shapes whose matches depend on the value run unnamed, so the server plans each request for its
 * values: a named statement switches to a generic plan after five runs, and the users search's generic plan
 * (measured at 50,000 users: 250 matches guessed for any term) sorts every match of a common term.
 */
import { describe, expect, it } from "vitest";
import type { Executor } from "./client.js";
import { runPageQuery } from "./page-query.js";

describe("runPageQuery's statement names", () => {
  it("names a shape's statement unless a filter in customPlan is present; then it is unnamed", async () => {
    const db = {} as Executor; // only a key for the per-handle statement cache: the statements below run nothing
    const names: string[] = [];
    const run = (filter: Record<string, string | undefined>) =>
      runPageQuery(
        db,
        "probe",
        "tenant",
        filter,
        { limit: 20, offset: 0 },
        (_p, name) => {
          names.push(name);
          return { execute: async () => [] };
        },
        { customPlan: ["pattern"] },
      );
    await run({ role: "student", pattern: undefined });
    await run({ role: "student", pattern: "%a%" });
    await run({ pattern: "%b%" });
    await run({ role: "teacher", pattern: undefined }); // the first shape again: built once, not again
    expect(names).toEqual(["probe_list_role", "", ""]);
  });
});
