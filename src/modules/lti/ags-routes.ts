import { Type } from "typebox";
import { tenantOf } from "../../platform/auth/request.js";
import type { publicOrigin } from "../../platform/http/host.js";
import type { App } from "../../platform/http/types.js";
import { requireCourse } from "./ags.js";
import { deleteLineItem, updateLineItem } from "./ags-items.js";
import { LTI_SCOPES } from "./schemas.js";
import { LineItem, LineItemBody, LineItemParams } from "./service-schemas.js";
import type { ToolRow } from "./tool-repo.js";
import { LTI_PATH, type LtiDeps } from "./tools.js";

type Request = Parameters<typeof publicOrigin>[0];
const tags = ["lti-tools"];
const LINE_ITEM_TYPE = "application/vnd.ims.lis.v2.lineitem+json";
const [LINEITEM] = LTI_SCOPES;
const config = { access: { kind: "tenant" }, closedWhileInactive: true, errors: [401, 403] } as const;

/** Line item PUT and DELETE (AGS 2.0 3.2.6-3.2.7), inside the service routes' scope and its body parsers. */
export function agsItemRoutes(
  scope: App,
  deps: (request: Request) => LtiDeps,
  toolFor: (request: Request, scopes: (string | undefined)[]) => Promise<ToolRow>,
): void {
  const path = `${LTI_PATH}/courses/:courseId/line-items/:lineItemId`;

  scope.put(
    path,
    {
      config,
      schema: {
        tags,
        summary: "AGS: replace a line item",
        description:
          "Its label and `scoreMaximum` become its grade item's title and maximum; fields left out are cleared.",
        params: LineItemParams,
        consumes: [LINE_ITEM_TYPE, "application/json"],
        body: LineItemBody,
        response: { 200: LineItem },
      },
    },
    async (request) => {
      const tool = await toolFor(request, [LINEITEM]);
      const tenantId = tenantOf(request).id;
      const courseId = await requireCourse(deps(request), tenantId, request.params.courseId);
      const id = request.params.lineItemId;
      return updateLineItem(deps(request), tenantId, tool, courseId, id, request.body);
    },
  );

  scope.delete(
    path,
    {
      config,
      schema: {
        tags,
        summary: "AGS: delete a line item",
        description: "Its grade item and that item's grades go with it.",
        params: LineItemParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const tool = await toolFor(request, [LINEITEM]);
      const tenantId = tenantOf(request).id;
      const courseId = await requireCourse(deps(request), tenantId, request.params.courseId);
      await deleteLineItem(deps(request), tenantId, tool, courseId, request.params.lineItemId);
      reply.code(204).send(null);
    },
  );
}
