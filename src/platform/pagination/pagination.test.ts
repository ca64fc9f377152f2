import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { bearer, makeKey } from "../../test-support/harness.js";
import { MAX_PER_PAGE, pageEnvelope, pageWindow } from "./pagination.js";

describe("page arithmetic", () => {
  it("pages tile the list exactly: no row twice, none skipped, totalPages = ceil(total/perPage)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 1, max: 1000 }),
        (total, requested) => {
          const perPage = pageWindow({ page: 1, perPage: requested }).perPage;
          expect(perPage).toBe(Math.min(requested, MAX_PER_PAGE));
          const totalPages = pageEnvelope([], total, pageWindow({ page: 1, perPage: requested })).pagination
            .totalPages;
          expect(totalPages).toBe(Math.ceil(total / perPage));
          let covered = 0;
          for (let page = 1; page <= totalPages; page++) {
            const w = pageWindow({ page, perPage: requested });
            expect(w.offset).toBe(covered);
            covered += Math.min(w.limit, total - w.offset);
          }
          expect(covered).toBe(total);
        },
      ),
    );
  });
});

describe("page parameters over HTTP", () => {
  const { h, tenants } = useApi({ tenants: 1 });
  const [t] = tenants;
  let key: string;
  beforeAll(async () => {
    key = await makeKey(h, t, []);
  });

  const get = (query: string) =>
    h.inject({
      method: "GET",
      url: `/api/institution/courses${query}`,
      headers: { host: t.host, ...bearer(key) },
    });

  it("defaults to page 1 of 20 and serves perPage above 100 as 100", async () => {
    expect((await get("")).json().pagination).toEqual({
      page: 1,
      perPage: 20,
      total: 0,
      totalPages: 0,
      totalRelation: "eq",
    });
    expect((await get("?perPage=100000")).json().pagination.perPage).toBe(100);
  });

  it.each([
    "?perPage=0",
    "?perPage=-1",
    "?perPage=1.5",
    "?perPage=abc",
    "?page=0",
    "?page=-3",
    "?page=2.5",
    "?page=",
  ])("refuses %s with 400 validation_failed naming the field", async (query) => {
    const res = await get(query);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("validation_failed");
    expect(res.json().details[0].field).toBe(query.includes("perPage") ? "perPage" : "page");
  });
});
