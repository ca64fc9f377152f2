/**
 * The reference catalogue: every other language must have exactly these keys (checked by the type below and by
 * a test). `{name}` placeholders are filled from the error's parameters.
 */
export const enUS = {
  validation_failed: "The request is not valid. See details for each field.",
  invalid_json: "The request body is not valid JSON.",
  unauthorized: "Authentication is missing or invalid.",
  invalid_credentials: "The e-mail or password is incorrect.",
  subscription_inactive: "This institution's subscription is inactive. Update billing to restore access.",
  forbidden: "You do not have permission to do this.",
  "forbidden.admin_required": "Only an institution administrator can do this.",
  insufficient_scope: "This API key does not have the scope required here: {scope}.",
  session_required: "This operation requires a signed-in session; API keys are not accepted.",
  not_found: "The requested resource was not found.",
  tenant_not_found: "No institution is served at this address.",
  conflict: "The request conflicts with the current state of the resource.",
  "conflict.email_taken": "A user with this e-mail already exists in this institution.",
  "conflict.last_admin": "An institution must keep at least one active administrator.",
  payload_too_large: "The request body is too large.",
  unsupported_media_type: "Send the request body as application/json.",
  student_limit_reached: "The plan's limit of {limit} students has been reached.",
  rate_limit_exceeded: "Too many requests. Try again in {retryAfter} seconds.",
  "rate_limit_exceeded.login": "Too many sign-in attempts. Try again in {retryAfter} seconds.",
  internal_error: "An unexpected error occurred. Please try again later.",
  student_limit_unverifiable:
    "The plan's student limit cannot be verified right now. Please try again later.",
  invalid_signature: "The Stripe-Signature header is missing, expired or does not match the body.",
  "conflict.already_subscribed":
    "This institution already has a subscription. Use the billing portal to change the plan or the payment method.",
  "conflict.not_inbound": "Only an automation triggered by an inbound webhook has a token.",
  "conflict.idempotency_mismatch": "This Idempotency-Key was already used with a different request.",
  "conflict.idempotency_in_progress":
    "A request with this Idempotency-Key is still in progress. Retry shortly.",
  "conflict.no_billing_customer": "This institution has no billing account yet. Start a checkout first.",
  payment_provider_error: "The payment provider could not be reached. Please try again later.",
  billing_not_configured: "Billing is not available for this plan and currency right now.",
  "field.url_forbidden": "Must be an http(s) URL of a public host, without templates or credentials.",
  "field.required": "This field is required.",
  "field.unknown": "This field is not allowed.",
  "field.type": "Must be of type {type}.",
  "field.format": "Must be a valid {format}.",
  "field.min_length": "Must be at least {limit} characters long.",
  "field.max_length": "Must be at most {limit} characters long.",
  "field.minimum": "Must be greater than or equal to {limit}.",
  "field.maximum": "Must be less than or equal to {limit}.",
  "field.enum": "Must be one of: {values}.",
  "field.pattern": "Has an invalid format.",
  "field.min_items": "Must contain at least {limit} items.",
  "field.max_items": "Must contain at most {limit} items.",
  "field.unique_items": "Must not contain duplicate items.",
  "field.invalid": "Is not valid.",
  "field.unknown_scope": "Unknown scope: {scope}.",
  "field.unknown_class_group": "Unknown class group: {id}.",
  "field.custom_limits_required": "Required when rateTier is custom.",
  "field.custom_limits_forbidden": "Only allowed when rateTier is custom.",
  "field.missing_scope": "Required scope: {scope}.",
  "field.no_changes": "Give at least one field to change.",
} as const;

export type MessageKey = keyof typeof enUS;
export type Catalogue = Readonly<Record<MessageKey, string>>;
