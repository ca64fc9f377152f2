import type { AppContext } from "../platform/context.js";
import type { App } from "../platform/http/types.js";
import { apiKeyRoutes } from "./api-keys/routes.js";
import { authRoutes } from "./auth/routes.js";
import { automationRoutes } from "./automations/routes.js";
import { billingRoutes } from "./billing/routes.js";
import { courseRoutes } from "./courses/routes.js";
import { eventRoutes } from "./events/routes.js";
import { healthRoutes } from "./health/routes.js";
import { userRoutes } from "./users/routes.js";
import { webhookRoutes } from "./webhooks/routes.js";

/** Every resource group's routes, registered on one app. */
export async function registerModules(app: App, ctx: AppContext): Promise<void> {
  healthRoutes(app, ctx);
  authRoutes(app, ctx);
  apiKeyRoutes(app, ctx);
  courseRoutes(app, ctx);
  userRoutes(app, ctx);
  await billingRoutes(app, ctx);
  automationRoutes(app, ctx);
  eventRoutes(app, ctx);
  webhookRoutes(app, ctx);
}
