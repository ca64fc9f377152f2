import { afterEach, describe, expect, it } from "vitest";
import { hashPassword, setPasswordHashCost, verifyPassword } from "./secrets.js";

describe("password hashes", () => {
  afterEach(() => setPasswordHashCost(32768));

  it("are scrypt at N=2^15, r=8, p=1 by default, with a 16-byte salt and a 64-byte key", async () => {
    setPasswordHashCost(32768); // the test harness lowers it for this process; this is the default's value
    const hash = await hashPassword("correct horse battery staple");
    const [scheme, n, r, p, salt, key] = hash.split("$");
    expect([scheme, n, r, p]).toEqual(["scrypt", "32768", "8", "1"]);
    expect(Buffer.from(salt ?? "", "base64")).toHaveLength(16);
    expect(Buffer.from(key ?? "", "base64")).toHaveLength(64);
    expect(await verifyPassword("correct horse battery staple", hash)).toBe(true);
    expect(await verifyPassword("correct horse battery stapl", hash)).toBe(false);
  });

  it("carry their cost, so a hash made at another cost still verifies after the cost changes", async () => {
    setPasswordHashCost(256);
    const cheap = await hashPassword("s3cret");
    expect(cheap).toMatch(/^scrypt\$256\$8\$1\$/);
    setPasswordHashCost(32768);
    expect(await verifyPassword("s3cret", cheap)).toBe(true);
    expect(await verifyPassword("s3cret!", cheap)).toBe(false);
  });

  it("refuse a cost that is not a power of two", () => {
    for (const n of [0, 1, 1000, 2.5, -4]) expect(() => setPasswordHashCost(n)).toThrow();
  });
});
