/**
 * Personal data a Stripe payload can carry, by field name, wherever it appears (customer_details, invoice
 * customer_* copies, charges' billing_details, shipping, tax ids, custom checkout fields, and the card and source
 * fields of older API versions). The payment log keeps what an operator needs to reconcile money (ids, amounts,
 * statuses, periods) and none of this.
 */
const PERSONAL_FIELDS = new Set([
  "account_holder_name",
  "address",
  "address_city",
  "address_line1",
  "address_line2",
  "address_state",
  "address_zip",
  "billing_details",
  "business_name",
  "cardholder_name",
  "custom_fields",
  "customer_address",
  "customer_details",
  "customer_email",
  "customer_name",
  "customer_phone",
  "customer_shipping",
  "customer_tax_ids",
  "email",
  "individual_name",
  "ip_address",
  "name",
  "payer_email",
  "payer_name",
  "phone",
  "receipt_email",
  // Legacy Source objects keep the payer's name, e-mail, phone and address under `owner`.
  "owner",
  "shipping",
  "shipping_address",
  "shipping_details",
  "tax_id",
  "tax_ids",
  "verified_name",
]);

export const REDACTED = "[redacted]";

/** A copy of `value` with every personal field's value replaced by "[redacted]" (nulls stay null). */
export function redactPersonalData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactPersonalData);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] = PERSONAL_FIELDS.has(key) && field !== null ? REDACTED : redactPersonalData(field);
  }
  return out;
}
