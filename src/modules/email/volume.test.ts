/**
 * One request cannot queue unbounded text (issue 19): every recipient gets a rendered copy, rendered and written on
 * the event loop, so 1,000 recipients of a 200,000-character message held the server for minutes.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { emailMessages } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { bearer, json, makeKey, makeUser } from "../../test-support/harness.js";
import { MAX_QUEUED_CHARACTERS } from "./messages.js";

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let key: string;
let userIds: string[];

beforeAll(async () => {
  key = await makeKey(h, t, []);
  userIds = [];
  for (let i = 0; i < 11; i++) userIds.push((await makeUser(h, t, "teacher")).id);
});

const send = (bodyHtml: string, bodyText: string, ids: string[]) =>
  h.inject({
    method: "POST",
    url: "/api/institution/email/messages",
    headers: { host: t.host, ...json, ...bearer(key) },
    payload: { subject: "s", bodyHtml, bodyText, userIds: ids },
  });

const queued = async () =>
  (await h.database.db.select().from(emailMessages).where(eq(emailMessages.tenantId, t.id))).length;

describe("POST /email/messages volume", () => {
  it("refuses more than MAX_QUEUED_CHARACTERS in one request with 400 naming bodyHtml, queueing nothing", async () => {
    const res = await send("<p>x</p>".repeat(25_000), "x".repeat(200_000), userIds);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe("validation_failed");
    expect(res.json().details).toEqual([
      {
        field: "bodyHtml",
        message: `Deve ter no máximo ${Math.floor(MAX_QUEUED_CHARACTERS / 11).toLocaleString("pt-BR")} caracteres.`,
      },
    ]);
    expect(await queued()).toBe(0);
  });

  it("queues the same message for fewer recipients", async () => {
    const res = await send("<p>x</p>".repeat(25_000), "x".repeat(200_000), userIds.slice(0, 9));
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().queued).toBe(9);
    expect(await queued()).toBe(9);
  });
});
