import type { AppContext } from "../../platform/context.js";
import type { App } from "../../platform/http/types.js";
import { categoryRoutes } from "./category-routes.js";
import { gradeRoutes } from "./grade-routes.js";
import { gradebookRoutes } from "./gradebook-routes.js";
import { itemRoutes } from "./item-routes.js";

/** The gradebook (issue 23): categories, items, grades, the course grade and the change log. */
export function gradebookModuleRoutes(app: App, ctx: AppContext): void {
  categoryRoutes(app, ctx);
  itemRoutes(app, ctx);
  gradeRoutes(app, ctx);
  gradebookRoutes(app, ctx);
}
