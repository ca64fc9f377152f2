import { type Static, Type } from "typebox";
import { PLANS } from "../../config/plans.js";
import { LOCALES } from "../../locales/index.js";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";

export const DOMAIN_STATUSES = ["pending", "verified", "failed"] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** The longest custom domain: Fastify's default `maxParamLength`, so every host can be a `:host` parameter. */
export const MAX_HOST_LENGTH = 100;

/** How many custom domains the profile shows; the full list is `GET /api/institution/domains`. */
export const PROFILE_DOMAINS_SHOWN = 100;

const Timezone = Type.String({
  minLength: 1,
  maxLength: 64,
  description: "An IANA time zone such as `America/Sao_Paulo`; stored in its canonical spelling.",
});
const ContactEmail = Type.String({ format: "email", maxLength: 254 });

export const Profile = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    slug: Type.String({ description: "The institution's subdomain under the platform's base domain." }),
    defaultLocale: StringEnum(LOCALES),
    timezone: Type.String(),
    contactEmail: Type.Union([Type.String(), Type.Null()]),
    plan: StringEnum(PLANS),
    limits: Type.Object(
      {
        students: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
          description: "Students the plan allows; null if the plan is not in the configured catalogue.",
        }),
      },
      { additionalProperties: false },
    ),
    customDomains: Type.Array(
      Type.Object(
        { host: Type.String(), status: StringEnum(DOMAIN_STATUSES) },
        { additionalProperties: false },
      ),
      { description: `Oldest first, at most ${PROFILE_DOMAINS_SHOWN}.` },
    ),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "0b6f3f4e-8d7c-4a51-9a43-6f1f0e2c9b10",
        name: "Colégio Horizonte",
        slug: "horizonte",
        defaultLocale: "pt-BR",
        timezone: "America/Sao_Paulo",
        contactEmail: "secretaria@horizonte.edu.br",
        plan: "growth",
        limits: { students: 250 },
        customDomains: [{ host: "aulas.horizonte.edu.br", status: "verified" }],
        createdAt: "2026-01-10T12:00:00.000Z",
        updatedAt: "2026-03-02T09:30:00.000Z",
      },
    ],
  },
);
export type ProfileRecord = Static<typeof Profile>;

export const UpdateProfileBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    defaultLocale: Type.Optional(StringEnum(LOCALES)),
    timezone: Type.Optional(Timezone),
    contactEmail: Type.Optional(Type.Union([ContactEmail, Type.Null()])),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [
      { name: "Colégio Horizonte", timezone: "America/Recife", contactEmail: "ti@horizonte.edu.br" },
    ],
  },
);
export type UpdateProfileInput = Static<typeof UpdateProfileBody>;

export const Domain = Type.Object(
  {
    host: Type.String(),
    status: StringEnum(DOMAIN_STATUSES, {
      description:
        "`pending` until a check passes; `failed` when the last check did not find the record; `verified` once " +
        "a check passed (the host then serves the institution, and stays verified until deleted).",
    }),
    verification: Type.Object(
      {
        type: Type.Literal("TXT"),
        name: Type.String({ description: "The DNS name to publish the TXT record at." }),
        value: Type.String({ description: "The exact text of the TXT record." }),
      },
      { additionalProperties: false },
    ),
    verifiedAt: Type.Union([IsoDateTime, Type.Null()]),
    lastCheckedAt: Type.Union([IsoDateTime, Type.Null()]),
    lastCheckError: Type.Union([Type.String(), Type.Null()]),
    createdAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        host: "aulas.horizonte.edu.br",
        status: "pending",
        verification: {
          type: "TXT",
          name: "_aula-verification.aulas.horizonte.edu.br",
          value: "aula-verification=3f9c2a7b1e5d4c8a9b0f6e2d1c3a5b7e",
        },
        verifiedAt: null,
        lastCheckedAt: null,
        lastCheckError: null,
        createdAt: "2026-03-02T09:30:00.000Z",
      },
    ],
  },
);
export type DomainRecord = Static<typeof Domain>;

export const CreateDomainBody = Type.Object(
  {
    host: Type.String({
      minLength: 1,
      maxLength: MAX_HOST_LENGTH,
      description:
        "A lowercase DNS name with at least two labels; not an IP address, and not the platform's own domain. " +
        `At most ${MAX_HOST_LENGTH} characters, so that it fits in a path.`,
    }),
  },
  { additionalProperties: false, examples: [{ host: "aulas.horizonte.edu.br" }] },
);
export type CreateDomainInput = Static<typeof CreateDomainBody>;

/**
 * `:host` path parameters. A malformed host is answered like an unknown one (404) by `requireHost`. Fastify
 * refuses path parameters longer than its `maxParamLength` (100 by default) with 414 before this runs, which is
 * why a custom domain may not be longer than `MAX_HOST_LENGTH`: it could not be verified or deleted otherwise.
 */
export const HostParams = Type.Object({ host: Type.String({ maxLength: MAX_HOST_LENGTH }) });

export const DOMAIN_SORTS = ["createdAt", "-createdAt", "host", "-host"] as const;
export type DomainSort = (typeof DOMAIN_SORTS)[number];

export const ListDomainsQuery = Type.Object(
  {
    ...PageQuery,
    sort: Type.Optional(
      StringEnum(DOMAIN_SORTS, { default: "-createdAt", description: "`-` sorts descending. Newest first." }),
    ),
  },
  { additionalProperties: false },
);
export type ListDomainsQueryType = Static<typeof ListDomainsQuery>;

export const DomainPage = PageOf(Domain);
