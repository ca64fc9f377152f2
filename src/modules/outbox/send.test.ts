/**
 * The worker signs with Node's HMAC (send.ts); receivers verify with the Standard Webhooks libraries. Both must
 * agree byte for byte, for any id, time, body (any Unicode) and secret.
 */
import fc from "fast-check";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { sign, signedHeaders } from "./send.js";

const secretArb = fc
  .uint8Array({ minLength: 1, maxLength: 64 })
  .map((b) => `whsec_${Buffer.from(b).toString("base64")}`);
const timeArb = fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms));

describe("signing", () => {
  it("is the standardwebhooks library's signature, which the library verifies", () => {
    fc.assert(
      fc.property(secretArb, fc.uuid(), timeArb, fc.string({ unit: "binary" }), (secret, id, at, body) => {
        const ours = sign(secret, id, at, body);
        expect(ours).toBe(new Webhook(secret).sign(id, at, body));
      }),
      { numRuns: 300 },
    );
  });

  it("sends headers the library verifies, and refuses a secret the scheme does not accept", () => {
    const secret = `whsec_${Buffer.from("a secret of some length").toString("base64")}`;
    const now = new Date();
    const signed = signedHeaders({ id: "msg_1", headers: { "x-a": "b" }, body: '{"a":"é"}' }, secret, now);
    if (!signed.ok) throw new Error(signed.message);
    expect(() => new Webhook(secret).verify('{"a":"é"}', signed.headers)).not.toThrow();
    expect(signedHeaders({ id: "msg_1", headers: {}, body: "{}" }, "whsec_!!not base64!!", now)).toEqual({
      ok: false,
      message: "the signing secret is not usable",
    });
  });
});
