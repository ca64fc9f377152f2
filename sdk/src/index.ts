export { type Aula, type AulaClient, createAula } from "./client.js";
export {
  AulaConnectionError,
  AulaError,
  type ErrorDetail,
  isAulaError,
  type RateLimit,
} from "./errors.js";
export type { components, operations, paths, webhooks } from "./generated/openapi.js";
export { EVENT_TYPES, type Namespaces, OPERATIONS } from "./generated/operations.js";
export type {
  Args,
  ErrorCode,
  EventOf,
  Input,
  Item,
  ListOperation,
  Operation,
  OperationId,
  RequestOptions,
  Result,
  WebhookEvent,
  WebhookEventType,
} from "./operation-types.js";
export { hasNextPage, type Page, PagePromise, type Pagination } from "./pages.js";
export type { AulaOptions } from "./transport.js";
export {
  isKnownEventType,
  type VerifyOptions,
  verifyWebhook,
  verifyWebhookSignature,
  type WebhookHeaders,
  WebhookVerificationError,
} from "./webhooks.js";
