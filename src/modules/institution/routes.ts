import { Type } from "typebox";
import { adminSessionOnly, signedIn } from "../../platform/auth/access.js";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import type { App } from "../../platform/http/types.js";
import * as domains from "./domain-service.js";
import * as profile from "./profile-service.js";
import {
  CreateDomainBody,
  Domain,
  DomainPage,
  HostParams,
  ListDomainsQuery,
  Profile,
  UpdateProfileBody,
} from "./schemas.js";

const tags = ["institution"];
const read = signedIn("settings:read");
/** Who answers for the institution's identity and its domains: an administrator, in person. */
const adminSession = adminSessionOnly();

export function institutionRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;
  const plans = ctx.config.plans;

  app.get(
    "/api/institution/profile",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get the institution's profile",
        description:
          "Name, subdomain, defaults, the plan with its limits, and the custom domains with their status. " +
          "Any signed-in user, or a key with `settings:read`.",
        response: { 200: Profile },
      },
    },
    (request) => profile.getProfile(db, plans, tenantOf(request).id),
  );

  app.patch(
    "/api/institution/profile",
    {
      config: { access: adminSession },
      schema: {
        tags,
        summary: "Update the institution's profile",
        description:
          "Administrators only, with a session. `timezone` must be an IANA zone (stored in its canonical " +
          "spelling); `contactEmail: null` clears it. The plan changes through billing, the slug never.",
        body: UpdateProfileBody,
        response: { 200: Profile },
      },
    },
    (request) => profile.updateProfile(db, plans, ctx.tenants, tenantOf(request).id, request.body),
  );

  app.get(
    "/api/institution/domains",
    {
      config: { access: adminSession },
      schema: {
        tags,
        summary: "List custom domains",
        description: "Newest first unless `sort` says otherwise.",
        querystring: ListDomainsQuery,
        response: { 200: DomainPage },
      },
    },
    (request) => domains.listDomains(db, tenantOf(request).id, request.query),
  );

  app.post(
    "/api/institution/domains",
    {
      config: { access: adminSession },
      schema: {
        tags,
        summary: "Add a custom domain",
        description:
          "Registers the host as `pending` and answers the TXT record to publish. The host serves the " +
          "institution once `POST …/domains/:host/verify` finds the record. A host already registered by any " +
          "institution is 409 `conflict`.",
        body: CreateDomainBody,
        response: { 201: Domain },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return domains.createDomain(domains.domainDeps(ctx), tenantOf(request).id, request.body);
    },
  );

  app.get(
    "/api/institution/domains/:host",
    {
      config: { access: adminSession },
      schema: {
        tags,
        summary: "Get a custom domain",
        description: "With the TXT record to publish and the outcome of the last check.",
        params: HostParams,
        response: { 200: Domain },
      },
    },
    (request) => domains.getDomain(db, tenantOf(request).id, domains.requireHost(request.params.host)),
  );

  app.post(
    "/api/institution/domains/:host/verify",
    {
      config: { access: adminSession },
      schema: {
        tags,
        summary: "Verify a custom domain",
        description:
          "Looks up the TXT record now. Found: `verified`, and the host serves the institution immediately. " +
          "Missing, different, or the lookup failed: 200 with `status: failed` and `lastCheckError` (a " +
          "verified domain stays verified; delete it to stop serving it).",
        params: HostParams,
        response: { 200: Domain },
      },
    },
    (request) =>
      domains.verifyDomain(
        domains.domainDeps(ctx),
        tenantOf(request).id,
        domains.requireHost(request.params.host),
      ),
  );

  app.delete(
    "/api/institution/domains/:host",
    {
      config: { access: adminSession },
      schema: {
        tags,
        summary: "Remove a custom domain",
        description: "The host stops serving the institution at once.",
        params: HostParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await domains.deleteDomain(
        domains.domainDeps(ctx),
        tenantOf(request).id,
        domains.requireHost(request.params.host),
      );
      reply.code(204).send(null);
    },
  );
}
