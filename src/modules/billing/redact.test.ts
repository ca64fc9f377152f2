import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { billingSubscriptions, paymentEvents } from "../../db/schema/index.js";
import { useBillingApi } from "../../test-support/billing-api.js";
import { adminCookie, makeTenant, type TestTenant, tablesContaining } from "../../test-support/harness.js";
import { signed, WEBHOOK_SECRET } from "../../test-support/stripe-events.js";
import { REDACTED, redactPersonalData } from "./redact.js";

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
type JsonObject = { [key: string]: JsonValue };

const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/stripe/", import.meta.url));
const FIXTURE_DIRS = ["", "derived", "legacy-2025-02", "stripe-ruby-mock-2020-08-27"];
const NOT_PAYLOADS = new Set(["sequence.json", "signature-vectors.json"]);

/** Relative paths of every Stripe payload fixture. */
function fixtureFiles(): string[] {
  const files: string[] = [];
  for (const dir of FIXTURE_DIRS) {
    for (const name of readdirSync(join(FIXTURES, dir)).sort()) {
      if (name.endsWith(".json") && !NOT_PAYLOADS.has(name)) files.push(dir === "" ? name : `${dir}/${name}`);
    }
  }
  return files;
}

const readFixture = (file: string): JsonObject => JSON.parse(readFileSync(join(FIXTURES, file), "utf8"));

/** Keys whose string values are a person's data wherever they appear in a Stripe payload. */
const PERSONAL_KEYS = new Set([
  "email",
  "name",
  "phone",
  "customer_email",
  "customer_name",
  "customer_phone",
  "receipt_email",
  "line1",
  "line2",
  "city",
  "postal_code",
  "account_holder_name",
  "cardholder_name",
  "individual_name",
  "business_name",
  "verified_name",
  "ip_address",
]);
/** Lists of tax ids, whose entries carry the id itself in `value`. */
const TAX_ID_LISTS = new Set(["tax_ids", "customer_tax_ids"]);
/** The fake person of `derived/` (README section 4), checked literally. */
const DERIVED_PERSON = [
  "aluno@example.com",
  "Maria Exemplo",
  "+5511900000000",
  "Rua Exemplo",
  "123.456.789-09",
  "01000-000",
];

/** Every personal string value in `value`, found by key (see PERSONAL_KEYS) in the original payload. */
function personalStrings(value: JsonValue, out = new Set<string>(), inTaxIds = false): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) personalStrings(item, out, inTaxIds);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, field] of Object.entries(value)) {
      if (typeof field === "string" && (PERSONAL_KEYS.has(key) || (inTaxIds && key === "value"))) {
        out.add(field);
      }
      personalStrings(field, out, inTaxIds || TAX_ID_LISTS.has(key));
    }
  }
  return out;
}

function leafStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) leafStrings(item, out);
  else if (typeof value === "object" && value !== null)
    for (const field of Object.values(value)) leafStrings(field, out);
  return out;
}

function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, out);
  else if (typeof value === "object" && value !== null) {
    for (const [key, field] of Object.entries(value)) {
      out.add(key);
      keysOf(field, out);
    }
  }
  return out;
}

/**
 * The personal strings still present in `redacted`: in any string value, and anywhere in its JSON text. A
 * personal value that is part of a key name (the openapi fixture's shipping name is literally "name", and the
 * text has keys such as "business_name") is only looked for in values.
 */
function leaks(redacted: unknown, personal: Iterable<string>): string[] {
  const values = leafStrings(redacted);
  const text = JSON.stringify(redacted);
  const keys = keysOf(redacted);
  const found: string[] = [];
  for (const p of personal) {
    const inKeys = [...keys].some((k) => k.includes(p));
    if (values.some((v) => v.includes(p)) || (!inKeys && text.includes(p))) found.push(p);
  }
  return found;
}

function at(value: unknown, path: string): unknown {
  let node = value;
  for (const segment of path.split(".")) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (typeof node === "object" && node !== null) node = (node as Record<string, unknown>)[segment];
    else return undefined;
  }
  return node;
}

/** What an operator needs to reconcile money: each must come through unchanged where the payload has it. */
const OBJECT_PATHS = [
  "id",
  "object",
  "created",
  "currency",
  "status",
  "mode",
  "payment_status",
  "amount_total",
  "amount_subtotal",
  "amount_due",
  "amount_paid",
  "amount_remaining",
  "customer",
  "subscription",
  "invoice",
  "client_reference_id",
  "metadata",
  "metadata.tenantId",
  "cancel_at_period_end",
  "current_period_start",
  "current_period_end",
  "parent.subscription_details.subscription",
  "parent.subscription_details.metadata.tenantId",
  "items.data.0.price.id",
  "items.data.0.price.unit_amount",
  "items.data.0.current_period_end",
  "lines.data.0.amount",
  "lines.data.0.period.end",
];
const KEPT_PATHS = [
  "type",
  "api_version",
  "data.previous_attributes",
  ...OBJECT_PATHS,
  ...OBJECT_PATHS.map((p) => `data.object.${p}`),
];

/** Walks both trees side by side: where they differ, the redacted side must say "[redacted]". */
function differences(
  original: unknown,
  redacted: unknown,
  path: string,
  out: { path: string; key: string }[],
) {
  if (redacted === REDACTED && original !== REDACTED) {
    out.push({ path, key: path.split(".").at(-1) ?? "" });
    return;
  }
  if (Array.isArray(original) && Array.isArray(redacted) && original.length === redacted.length) {
    for (const [i, item] of original.entries()) differences(item, redacted[i], `${path}.${i}`, out);
    return;
  }
  if (
    typeof original === "object" &&
    original !== null &&
    !Array.isArray(original) &&
    typeof redacted === "object" &&
    redacted !== null &&
    !Array.isArray(redacted)
  ) {
    const a = Object.keys(original).sort();
    expect(Object.keys(redacted).sort(), `keys at ${path}`).toEqual(a);
    for (const key of a) {
      differences(
        (original as Record<string, unknown>)[key],
        (redacted as Record<string, unknown>)[key],
        `${path}.${key}`,
        out,
      );
    }
    return;
  }
  expect(redacted, `value at ${path}`).toEqual(original);
}

/** Fields that may be replaced whole: personal data, or containers of nothing but personal data. */
const REDACTABLE = new Set([
  ...PERSONAL_KEYS,
  ...TAX_ID_LISTS,
  "address",
  "billing_details",
  "custom_fields",
  "customer_address",
  "customer_details",
  "customer_shipping",
  "shipping",
  "shipping_address",
  "shipping_details",
  "tax_id",
]);

describe("redactPersonalData on the Stripe fixtures", () => {
  const files = fixtureFiles();

  it("finds every fixture directory", () => {
    expect(files.length).toBe(34);
    for (const dir of FIXTURE_DIRS.slice(1)) expect(files.some((f) => f.startsWith(`${dir}/`))).toBe(true);
  });

  it.each(files)("%s: no personal string is left", (file) => {
    const original = readFixture(file);
    const personal = personalStrings(original);
    if (file.startsWith("derived/")) for (const literal of DERIVED_PERSON) personal.add(literal);
    const redacted = redactPersonalData(original);
    expect(leaks(redacted, personal)).toEqual([]);
    // Every field named like personal data is gone (or was null already).
    const rest: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (Array.isArray(value)) for (const [i, item] of value.entries()) walk(item, `${path}.${i}`);
      else if (typeof value === "object" && value !== null) {
        for (const [key, field] of Object.entries(value)) {
          if (REDACTABLE.has(key) && field !== null && field !== REDACTED) rest.push(`${path}.${key}`);
          walk(field, `${path}.${key}`);
        }
      }
    };
    walk(redacted, "$");
    expect(rest).toEqual([]);
  });

  it.each(files)(
    "%s: ids, amounts, statuses, periods and metadata are kept; nothing else changes",
    (file) => {
      const original = readFixture(file);
      const before = structuredClone(original);
      const redacted = redactPersonalData(original);
      // A copy: the parsed event itself is left as it was.
      expect(original).toEqual(before);

      let checked = 0;
      for (const path of KEPT_PATHS) {
        const value = at(original, path);
        if (value === undefined) continue;
        expect(at(redacted, path), `${file} ${path}`).toEqual(value);
        checked++;
      }
      expect(checked).toBeGreaterThanOrEqual(3);

      const changed: { path: string; key: string }[] = [];
      differences(original, redacted, "$", changed);
      for (const { path, key } of changed) {
        expect(REDACTABLE.has(key), `${file}: ${path} was redacted`).toBe(true);
        expect(at(original, path.slice(2)), `${file}: ${path} was null`).not.toBeNull();
      }
    },
  );

  it("redacts the derived events' person and keeps their references", () => {
    const checkout = readFixture("derived/evt_checkout.session.completed.subscription_brl_card.json");
    const r = redactPersonalData(checkout);
    expect(at(r, "data.object.customer_details")).toBe(REDACTED);
    expect(at(r, "data.object.customer_email")).toBeNull();
    expect(at(r, "data.object.customer")).toBe("cus_QXg1o8vcGmoR32");
    expect(at(r, "data.object.subscription")).toBe("sub_1Pgc6rB7WZ01zgkWNy0Cn5nw");
    expect(at(r, "data.object.metadata")).toEqual({ tenantId: "tenant_demo_001", plan: "growth" });
    expect(at(r, "data.object.amount_total")).toBe(4990);

    const invoice = readFixture("derived/evt_invoice.payment_failed.subscription_cycle.json");
    const ri = redactPersonalData(invoice);
    for (const field of [
      "customer_email",
      "customer_name",
      "customer_phone",
      "customer_address",
      "customer_tax_ids",
    ]) {
      expect(at(ri, `data.object.${field}`), field).toBe(REDACTED);
    }
    expect(at(ri, "data.object.customer_shipping")).toBeNull();
    expect(at(ri, "data.object.parent.subscription_details.subscription")).toBe(
      "sub_1Pgc6rB7WZ01zgkWNy0Cn5nw",
    );
    expect(at(ri, "data.object.amount_due")).toBe(4990);
    expect(at(ri, "data.object.status")).toBe("open");
    expect(at(ri, "created")).toBe(1769907650);
  });
});

/** The derived scenario events, by file name. */
const DERIVED = fixtureFiles().filter((f) => f.startsWith("derived/evt_"));
const DERIVED_CUSTOMER = "cus_QXg1o8vcGmoR32";
const DERIVED_TENANTS = new Set(["tenant_demo_001", "tenant_demo_002"]);

/** A copy with every string equal to a key of `map` replaced. */
function rewrite(value: JsonValue, map: ReadonlyMap<string, string>): JsonValue {
  if (typeof value === "string") return map.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => rewrite(item, map));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v, map)]));
  }
  return value;
}

describe("the webhook stores and logs Stripe events without personal data", () => {
  const lines: string[] = [];
  const { h } = useBillingApi({}, { onLog: (line) => lines.push(line) });
  let tenant: TestTenant;
  let customer: string;
  const signatures: string[] = [];
  /** Event id posted → the tenant it should be logged under (null: unbound). */
  const posted = new Map<string, string | null>();
  const personal = new Set<string>(DERIVED_PERSON);

  beforeAll(async () => {
    tenant = await makeTenant(h);
    customer = `cus_test_${randomBytes(6).toString("hex")}`;
    await h.database.db
      .insert(billingSubscriptions)
      .values({ tenantId: tenant.id, stripeCustomerId: customer });
    // Short all-digit values (a US zip code) could turn up by chance in random ids or timestamps.
    for (const file of DERIVED) {
      for (const p of personalStrings(readFixture(file))) if (!/^[0-9]{1,7}$/.test(p)) personal.add(p);
    }
  });

  async function post(event: JsonValue): Promise<string> {
    const request = signed(JSON.stringify(event));
    const signature = request.headers["stripe-signature"];
    if (signature !== undefined) signatures.push(signature);
    const res = await h.inject({ method: "POST", url: "/api/webhooks/stripe", ...request });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ outcome: string }>().outcome;
  }

  it("posts every derived event, bound to a tenant and unbound, and stores each one redacted", async () => {
    expect(DERIVED.length).toBe(12);
    const run = randomBytes(4).toString("hex");
    for (const file of DERIVED) {
      const original = readFixture(file);
      const id = String(original.id);
      // Bound: the tenant's customer (and id, where the event names a tenant). The ids are made unique, so a
      // shared database that has seen these fixtures before stores them again.
      const boundMap = new Map([[DERIVED_CUSTOMER, customer]]);
      for (const demo of DERIVED_TENANTS) boundMap.set(demo, tenant.id);
      boundMap.set(id, `${id}_bound_${run}`);
      const bound = rewrite(original, boundMap);
      expect(["applied", "ignored", "stale"]).toContain(await post(bound));
      posted.set(`${id}_bound_${run}`, tenant.id);

      // Unbound: a customer no tenant has.
      const unboundMap = new Map([
        [DERIVED_CUSTOMER, `cus_test_nobody_${run}`],
        [id, `${id}_unbound_${run}`],
      ]);
      expect(await post(rewrite(original, unboundMap))).toBe("ignored");
      posted.set(`${id}_unbound_${run}`, null);
    }

    const rows = await h.database.db
      .select()
      .from(paymentEvents)
      .where(inArray(paymentEvents.eventId, [...posted.keys()]));
    expect(rows.length).toBe(posted.size);
    for (const row of rows) {
      expect(row.tenantId, row.eventId).toBe(posted.get(row.eventId));
      expect(leaks(row.payload, personal), row.eventId).toEqual([]);
      expect(at(row.payload, "id")).toBe(row.eventId);
      expect(at(row.payload, "data.object.customer")).toBe(
        row.tenantId === null ? `cus_test_nobody_${run}` : customer,
      );
      expect(at(row.payload, "type")).toBe(row.type);
    }

    for (const needle of [...DERIVED_PERSON, "john@example.com", "John Example"]) {
      expect(await tablesContaining(h, needle), needle).toEqual([]);
    }
  });

  it("shows the tenant its payment log without personal data", async () => {
    const cookie = await adminCookie(h, tenant);
    const res = await h.inject({
      method: "GET",
      url: "/api/institution/billing/events?perPage=100",
      headers: { host: tenant.host, cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ data: { externalEventId: string; rawPayload: unknown }[] }>();
    const mine = [...posted].filter(([, t]) => t === tenant.id).map(([id]) => id);
    expect(page.data.map((e) => e.externalEventId).sort()).toEqual(mine.sort());
    expect(leaks(page.data, personal)).toEqual([]);
  });

  it("refuses a forged copy without storing it", async () => {
    const original = readFixture("derived/evt_invoice.payment_failed.subscription_cycle.json");
    const id = `evt_test_forged_${randomBytes(4).toString("hex")}`;
    const forged = signed(JSON.stringify({ ...original, id }), { secret: `${WEBHOOK_SECRET}_wrong` });
    const signature = forged.headers["stripe-signature"];
    if (signature !== undefined) signatures.push(signature);
    const res = await h.inject({ method: "POST", url: "/api/webhooks/stripe", ...forged });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "invalid_signature" });
    const rows = await h.database.db
      .select()
      .from(paymentEvents)
      .where(inArray(paymentEvents.eventId, [id]));
    expect(rows).toEqual([]);
  });

  it("logs the events, but neither personal data nor the Stripe-Signature header", () => {
    expect(signatures.length).toBe(2 * DERIVED.length + 1);
    // The log did capture the webhook requests, so the checks below are not vacuous.
    for (const id of posted.keys())
      expect(
        lines.some((l) => l.includes(id)),
        id,
      ).toBe(true);
    const leaked: string[] = [];
    for (const line of lines) {
      for (const p of personal) if (line.includes(p)) leaked.push(`${p} in ${line}`);
      for (const s of signatures) if (line.includes(s)) leaked.push(`signature in ${line}`);
      // The HMAC alone (the v1 part) must not be there either.
      for (const s of signatures) {
        const v1 = /v1=([0-9a-f]+)/.exec(s)?.[1];
        if (v1 !== undefined && line.includes(v1)) leaked.push(`signature hmac in ${line}`);
      }
      if (line.includes(WEBHOOK_SECRET)) leaked.push(`webhook secret in ${line}`);
    }
    expect(leaked).toEqual([]);
  });
});
