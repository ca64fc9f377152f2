import type { AppContext } from "../platform/context.js";
import type { App } from "../platform/http/types.js";
import { apiKeyRoutes } from "./api-keys/routes.js";
import { authRoutes } from "./auth/routes.js";
import { automationRoutes } from "./automations/routes.js";
import { billingRoutes } from "./billing/routes.js";
import { calendarRoutes } from "./calendar/routes.js";
import { classRoutes } from "./classes/routes.js";
import { courseModuleRoutes } from "./course-modules/routes.js";
import { courseRoutes } from "./courses/routes.js";
import { enrollmentRoutes } from "./enrollments/routes.js";
import { eventRoutes } from "./events/routes.js";
import { healthRoutes } from "./health/routes.js";
import { institutionRoutes } from "./institution/routes.js";
import { inviteRoutes } from "./invites/routes.js";
import { lessonRoutes } from "./lessons/routes.js";
import { liveClassRoutes } from "./live-classes/routes.js";
import { questionBankRoutes } from "./question-banks/routes.js";
import { quizRoutes } from "./quizzes/routes.js";
import { tagRoutes } from "./tags/routes.js";
import { userRoutes } from "./users/routes.js";
import { videoDeps, videoProviderRoutes } from "./video-providers/routes.js";
import { webhookRoutes } from "./webhooks/routes.js";

/** Every resource group's routes, registered on one app. */
export async function registerModules(app: App, ctx: AppContext): Promise<void> {
  healthRoutes(app, ctx);
  authRoutes(app, ctx);
  apiKeyRoutes(app, ctx);
  courseRoutes(app, ctx);
  courseModuleRoutes(app, ctx);
  lessonRoutes(app, ctx);
  enrollmentRoutes(app, ctx);
  userRoutes(app, ctx);
  classRoutes(app, ctx);
  inviteRoutes(app, ctx);
  await billingRoutes(app, ctx);
  automationRoutes(app, ctx);
  eventRoutes(app, ctx);
  webhookRoutes(app, ctx);
  institutionRoutes(app, ctx);
  tagRoutes(app, ctx);
  questionBankRoutes(app, ctx);
  quizRoutes(app, ctx);
  const video = videoDeps(app, ctx);
  videoProviderRoutes(app, ctx, video);
  calendarRoutes(app, ctx);
  liveClassRoutes(app, ctx, video);
}
