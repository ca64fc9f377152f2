/**
 * The multi-process test's comparison (checks.ts) on hand-made rows and receipts: each way a run can go wrong is
 * reported, so that test cannot pass by checking nothing.
 */
import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { compare, type DeliveryRow } from "./checks.js";
import type { Receipt } from "./receiver.js";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const webhook = new Webhook(SECRET);

function receipt(id: string, body: string, secret = SECRET): Receipt {
  const at = new Date();
  return {
    body,
    headers: {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(id, at, body),
    },
  };
}

function row(overrides: Partial<DeliveryRow> = {}): DeliveryRow {
  return {
    id: randomUUID(),
    status: "succeeded",
    attempts: 1,
    body: `{"n":${Math.random()}}`,
    recorded: [1],
    succeeded: 1,
    ...overrides,
  };
}

const receiptsOf = (...rows: [DeliveryRow, number][]) =>
  new Map(rows.map(([r, times]) => [r.id, Array.from({ length: times }, () => receipt(r.id, r.body))]));

describe("multi-process comparison", () => {
  it("passes a clean run, and a repeat of an attempt the killed worker held", () => {
    const clean = row();
    const retaken = row({ attempts: 2, recorded: [2] });
    const verdict = compare(
      [clean, retaken],
      receiptsOf([clean, 1], [retaken, 2]),
      SECRET,
      new Map([[retaken.id, 1]]),
    );
    expect(verdict).toEqual({ problems: [], repeats: [retaken.id], unrecorded: [retaken.id] });
    expect(() => webhook.verify(clean.body, receipt(clean.id, clean.body).headers)).not.toThrow();
  });

  it("reports every way a delivery can go wrong", () => {
    const lost = row();
    const pending = row({ status: "pending", succeeded: 0 });
    const twiceRecorded = row({ attempts: 2, recorded: [1, 2], succeeded: 2 });
    const notHeld = row({ attempts: 2, recorded: [2] });
    const wrongAttempt = row({ attempts: 3, recorded: [1, 3] });
    const tooMany = row({ attempts: 2, recorded: [2] });
    const forged = row();
    const altered = row();
    const receipts = receiptsOf(
      [pending, 1],
      [twiceRecorded, 2],
      [notHeld, 2],
      [wrongAttempt, 1],
      [tooMany, 3],
    );
    receipts.set(forged.id, [receipt(forged.id, forged.body, "whsec_dGhpcyBpcyBub3QgdGhlIHNlY3JldA==")]);
    receipts.set(altered.id, [receipt(altered.id, `${altered.body} `)]);
    const stranger = randomUUID();
    receipts.set(stranger, [receipt(stranger, "{}")]);
    const rows = [lost, pending, twiceRecorded, notHeld, wrongAttempt, tooMany, forged, altered];
    const held = new Map([
      [wrongAttempt.id, 1],
      [tooMany.id, 1],
    ]);
    const { problems } = compare(rows, receipts, SECRET, held);
    const about = (r: { id: string } | string) =>
      problems.filter((p) => p.startsWith(typeof r === "string" ? r : r.id));
    expect(about(lost)).toEqual([`${lost.id}: never received`]);
    expect(about(pending)).toEqual([
      `${pending.id}: status pending`,
      `${pending.id}: 0 succeeded attempts logged`,
    ]);
    expect(about(twiceRecorded)).toEqual([
      `${twiceRecorded.id}: 2 succeeded attempts logged`,
      `${twiceRecorded.id}: received 2 times, every attempt recorded`,
    ]);
    expect(about(notHeld)).toEqual([
      `${notHeld.id}: attempts 1 unrecorded, but the killed worker held attempt none`,
    ]);
    expect(about(wrongAttempt)).toEqual([
      `${wrongAttempt.id}: attempts 2 unrecorded, but the killed worker held attempt 1`,
    ]);
    expect(about(tooMany)).toEqual([`${tooMany.id}: received 3 times in 2 attempts`]);
    expect(about(forged)).toHaveLength(1);
    expect(about(forged)[0]).toMatch(/signature does not verify/);
    expect(about(altered)).toEqual([`${altered.id}: a receipt's body differs from the stored body`]);
    expect(about(stranger)).toEqual([`${stranger}: received, not in the table`]);
    expect(problems).toHaveLength(11);
  });
});
