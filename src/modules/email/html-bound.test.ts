/**
 * Issue 19, point 3: an e-mail template's HTML at its 200,000-character limit is sanitised off the event loop.
 * On the loop, sanitize-html took 100-700 ms for such a body, and every other tenant's requests waited.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { adminCookie, json } from "../../test-support/harness.js";
import { measureLoopBlock } from "../../test-support/loop-block.js";

const { h, tenants } = useApi({ tenants: 1 });
const [a] = tenants;
let cookie: string;

function post(url: string, payload: object) {
  return h.inject({ method: "POST", url, headers: { host: a.host, cookie, ...json }, payload });
}

beforeAll(async () => {
  cookie = await adminCookie(h, a);
});

describe("e-mail template HTML at its limit", () => {
  it("is sanitised without holding the event loop, and still sanitised", async () => {
    const warm = await post("/api/institution/email/templates", {
      key: "custom.warm",
      locale: "pt-BR",
      subject: "s",
      bodyHtml: '<p>ok</p><script>x</script><a href="javascript:alert(1)">l</a>',
      bodyText: "t",
    });
    expect(warm.statusCode).toBe(201);
    expect(warm.json().bodyHtml).toBe("<p>ok</p><a>l</a>");

    // The best of three tries is compared, so a busy machine's scheduling noise does not decide; on the loop,
    // this body held it for 100 ms or more even warm, every time.
    const bodyHtml = "<b>x</b>".repeat(25_000);
    const tries: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { result, maxBlockMs } = await measureLoopBlock(() =>
        post("/api/institution/email/templates", {
          key: `custom.heavy_${i}`,
          locale: "pt-BR",
          subject: "s",
          bodyHtml: `${bodyHtml.slice(0, 199_980)}<script>y</script>`,
          bodyText: "t",
        }),
      );
      expect(result.statusCode).toBe(201);
      expect(result.json().bodyHtml).not.toContain("<script");
      tries.push(maxBlockMs);
    }
    expect(Math.min(...tries), tries.join(", ")).toBeLessThan(50);
  }, 60_000);
});
