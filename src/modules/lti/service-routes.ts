import { Type } from "typebox";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { publicOrigin } from "../../platform/http/host.js";
import { boundedJsonParser } from "../../platform/http/json-body.js";
import type { App } from "../../platform/http/types.js";
import { createOutboundClient } from "../../platform/outbound/client.js";
import { createLineItem, getLineItem, listLineItems, postScore, requireCourse } from "./ags.js";
import { listResults } from "./ags-results.js";
import { agsItemRoutes } from "./ags-routes.js";
import { acceptDeepLink, donePage } from "./deep-links.js";
import { MAX_MEMBERS_PAGE, roster } from "./nrps.js";
import { LTI_SCOPES } from "./schemas.js";
import {
  CourseParams,
  DeepLinkBody,
  LineItem,
  LineItemBody,
  LineItemParams,
  Paging,
  ScoreBody,
  Str,
  TokenBody,
} from "./service-schemas.js";
import { issueToken, toolOfAccessToken } from "./token.js";
import { LTI_PATH, type LtiDeps } from "./tools.js";

const tags = ["lti-tools"];
const FORM = "application/x-www-form-urlencoded";
const LINE_ITEM_TYPE = "application/vnd.ims.lis.v2.lineitem+json";
const SCORE_TYPE = "application/vnd.ims.lis.v1.score+json";
const FORM_LIMIT = 64 * 1024;
const [LINEITEM, LINEITEM_READ, RESULT_READ, SCORE, MEMBERSHIPS] = LTI_SCOPES;
/** Service routes answer to the tool's access token, not to our keys or sessions; they close with the tenant. */
const config = { access: { kind: "tenant" }, closedWhileInactive: true, errors: [401, 403] } as const;

const perPage = (limit: number | undefined) => Math.min(limit ?? MAX_MEMBERS_PAGE, MAX_MEMBERS_PAGE);

export async function serviceRoutes(app: App, ctx: AppContext): Promise<void> {
  const client = createOutboundClient(ctx.config.outbound, { resolve: (name) => ctx.resolve(name) });
  app.addHook("onClose", () => client.destroy());
  await app.register(async (plain) => {
    const scope = plain as unknown as App;
    scope.addContentTypeParser(FORM, { parseAs: "string", bodyLimit: FORM_LIMIT }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    scope.addContentTypeParser([LINE_ITEM_TYPE, SCORE_TYPE], { parseAs: "string" }, boundedJsonParser(scope));
    const deps = (request: Parameters<typeof publicOrigin>[0]): LtiDeps => ({
      ctx,
      origin: publicOrigin(request),
    });
    const toolFor = (request: Parameters<typeof publicOrigin>[0], scopes: (string | undefined)[]) =>
      toolOfAccessToken(
        deps(request),
        tenantOf(request).id,
        request.headers.authorization,
        scopes as string[],
      );

    scope.post(
      `${LTI_PATH}/token`,
      {
        config,
        schema: {
          tags,
          summary: "LTI token endpoint (client credentials)",
          description:
            "A tool trades a client assertion, a JWT signed with its registered key (`iss` and `sub` its client " +
            "id, `aud` this URL, a `jti` used once, at most an hour old), for a one-hour access token to the " +
            "services its registration allows (the requested `scope` intersected with the tool's). A bad, " +
            "expired or replayed assertion: 401.",
          consumes: [FORM, "application/json"],
          body: TokenBody,
        },
      },
      async (request, reply) => {
        reply.header("cache-control", "no-store");
        return issueToken(deps(request), client, tenantOf(request).id, request.body);
      },
    );

    scope.post(
      `${LTI_PATH}/deep-links`,
      {
        config: { ...config, errors: [401, 403, 409] },
        schema: {
          tags,
          summary: "Deep-linking return URL",
          description:
            "The tool form-posts its LtiDeepLinkingResponse (`JWT`, signed with its key, naming our launch in " +
            "`data`). Each `ltiResourceLink` item becomes a draft text lesson launched through the tool, each " +
            "`link` an embed lesson, in the module launched from (or the course's last one; none: 409). One " +
            "response per launch; a bad signature: 401.",
          consumes: [FORM],
          body: DeepLinkBody,
        },
      },
      async (request, reply) => {
        const result = await acceptDeepLink(deps(request), client, tenantOf(request).id, request.body.JWT);
        reply.headers({
          "content-type": "text/html; charset=utf-8",
          "content-security-policy": "default-src 'none'; base-uri 'none'; frame-ancestors 'self'",
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
        });
        return donePage(result.lessonIds.length, result.message);
      },
    );

    scope.get(
      `${LTI_PATH}/courses/:courseId/line-items`,
      {
        config,
        schema: {
          tags,
          summary: "AGS: the tool's line items in a course",
          operationId: "lti.courses.lineItems.list",
          params: CourseParams,
          querystring: Type.Object(
            { ...Paging, resource_link_id: Str(), tag: Str() },
            { additionalProperties: false },
          ),
        },
      },
      async (request, reply) => {
        const tool = await toolFor(request, [LINEITEM, LINEITEM_READ]);
        const courseId = await requireCourse(deps(request), tenantOf(request).id, request.params.courseId);
        const { limit, page = 1, ...filter } = request.query;
        const result = await listLineItems(deps(request), tenantOf(request).id, tool, courseId, {
          ...filter,
          page,
          limit: perPage(limit),
        });
        reply.header("content-type", "application/vnd.ims.lis.v2.lineitemcontainer+json");
        return result.items;
      },
    );

    scope.post(
      `${LTI_PATH}/courses/:courseId/line-items`,
      {
        config,
        schema: {
          tags,
          summary: "AGS: create a line item (a grade item of the course)",
          params: CourseParams,
          consumes: [LINE_ITEM_TYPE, "application/json"],
          body: LineItemBody,
          response: { 201: LineItem },
        },
      },
      async (request, reply) => {
        const tool = await toolFor(request, [LINEITEM]);
        const courseId = await requireCourse(deps(request), tenantOf(request).id, request.params.courseId);
        const item = await createLineItem(deps(request), tenantOf(request).id, tool, courseId, request.body);
        // Plain JSON, the body the API reference documents (the IMS type is a JSON type; tools parse either).
        reply.code(201);
        return item;
      },
    );

    scope.get(
      `${LTI_PATH}/courses/:courseId/line-items/:lineItemId`,
      { config, schema: { tags, summary: "AGS: one line item", params: LineItemParams } },
      async (request, reply) => {
        const tool = await toolFor(request, [LINEITEM, LINEITEM_READ]);
        const courseId = await requireCourse(deps(request), tenantOf(request).id, request.params.courseId);
        const item = await getLineItem(
          deps(request),
          tenantOf(request).id,
          tool,
          courseId,
          request.params.lineItemId,
        );
        reply.header("content-type", LINE_ITEM_TYPE);
        return item;
      },
    );

    agsItemRoutes(scope, deps, toolFor);

    scope.post(
      `${LTI_PATH}/courses/:courseId/line-items/:lineItemId/scores`,
      {
        config,
        schema: {
          tags,
          summary: "AGS: post a score",
          description:
            "A `FullyGraded` score becomes the student's grade on the line item's grade item (score as a share of " +
            "the score's `scoreMaximum`), through the gradebook, so `grade_posted` fires as for any grade. Other " +
            "grading progress is acknowledged and not written. A user who is not a current student: ignored.",
          params: LineItemParams,
          consumes: [SCORE_TYPE, "application/json"],
          body: ScoreBody,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        const tool = await toolFor(request, [SCORE]);
        const courseId = await requireCourse(deps(request), tenantOf(request).id, request.params.courseId);
        const params = request.params;
        await postScore(deps(request), tenantOf(request).id, tool, courseId, params.lineItemId, request.body);
        reply.code(204).send(null);
      },
    );

    scope.get(
      `${LTI_PATH}/courses/:courseId/line-items/:lineItemId/results`,
      {
        config,
        schema: {
          tags,
          summary: "AGS: the line item's results",
          description:
            "The current grades of the line item's grade item (a teacher's override included), a page at a " +
            'time (`Link: rel="next"`); `user_id` narrows to one user.',
          params: LineItemParams,
          querystring: Type.Object({ ...Paging, user_id: Str(64) }, { additionalProperties: false }),
        },
      },
      async (request, reply) => {
        const tool = await toolFor(request, [RESULT_READ]);
        const courseId = await requireCourse(deps(request), tenantOf(request).id, request.params.courseId);
        const { limit, page = 1, user_id } = request.query;
        const query = { limit: perPage(limit), page, ...(user_id === undefined ? {} : { user_id }) };
        const params = request.params;
        const result = await listResults(
          deps(request),
          tenantOf(request).id,
          tool,
          courseId,
          params.lineItemId,
          query,
        );
        reply.header("content-type", "application/vnd.ims.lis.v2.resultcontainer+json");
        if (result.next !== undefined) reply.header("link", `<${result.next}>; rel="next"`);
        return result.results;
      },
    );

    scope.get(
      `${LTI_PATH}/courses/:courseId/memberships`,
      {
        config,
        schema: {
          tags,
          summary: "NRPS: the course roster",
          description: `Pages of at most ${MAX_MEMBERS_PAGE} members; \`Link: rel="next"\` names the next page.`,
          params: CourseParams,
          querystring: Type.Object(
            {
              ...Paging,
              role: Type.Optional(
                Type.String({
                  maxLength: 255,
                  description: "A LIS membership role (`Learner`, `Instructor`, `Mentor`, or its full URI).",
                }),
              ),
            },
            { additionalProperties: false },
          ),
        },
      },
      async (request, reply) => {
        const tool = await toolFor(request, [MEMBERSHIPS]);
        const courseId = await requireCourse(deps(request), tenantOf(request).id, request.params.courseId);
        const { role } = request.query;
        const page = {
          limit: perPage(request.query.limit),
          page: request.query.page ?? 1,
          ...(role === undefined ? {} : { role }),
        };
        const result = await roster(deps(request), tenantOf(request).id, tool, courseId, page);
        reply.header("content-type", "application/vnd.ims.lti-nrps.v2.membershipcontainer+json");
        if (result.next !== undefined) reply.header("link", `<${result.next}>; rel="next"`);
        return result.body;
      },
    );
  });
}
