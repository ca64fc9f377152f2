import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { PROVIDERS } from "./providers/types.js";

export const PURPOSES = ["live", "on_demand"] as const;
export const STATUSES = ["connected", "error", "disconnected"] as const;

const Secret = (description: string) =>
  Type.String({ minLength: 1, maxLength: 512, pattern: "\\S", description });

/** Write-only: every provider's fields in one object; each provider requires its own (see the route's text). */
export const CredentialsBody = Type.Object(
  {
    sharedSecret: Type.Optional(Secret("BigBlueButton: the server's shared secret (`bbb-conf --secret`).")),
    accountId: Type.Optional(Secret("Zoom Server-to-Server OAuth app: account id.")),
    clientId: Type.Optional(Secret("Zoom Server-to-Server OAuth app: client id.")),
    clientSecret: Type.Optional(Secret("Zoom Server-to-Server OAuth app: client secret.")),
  },
  { additionalProperties: false, description: "Write-only; stored encrypted and never returned." },
);

export const SettingsBody = Type.Object(
  {
    baseUrl: Type.Optional(
      Type.String({
        maxLength: 2048,
        description:
          "Jitsi: the server (default `https://meet.jit.si`). BigBlueButton: the API root, e.g. " +
          "`https://bbb.example.edu/bigbluebutton` (required). A public http(s) URL. Where the credentials " +
          "are sent: on a connection that holds them, only an administrator's session may change it.",
      }),
    ),
    checksumAlgorithm: Type.Optional(
      StringEnum(["sha1", "sha256"] as const, { description: "BigBlueButton checksum; default `sha1`." }),
    ),
    defaultRecording: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const VideoProvider = Type.Object(
  {
    id: Uuid,
    provider: StringEnum(PROVIDERS),
    purpose: StringEnum(PURPOSES),
    name: Type.String(),
    settings: SettingsBody,
    isDefault: Type.Boolean(),
    hasCredentials: Type.Boolean(),
    credentialsFingerprint: Type.Union([Type.String(), Type.Null()], {
      description:
        "First 16 hex digits of the SHA-256 of the credentials: tells two sets apart, reveals nothing.",
    }),
    status: StringEnum(STATUSES),
    lastCheckedAt: Type.Union([IsoDateTime, Type.Null()]),
    lastError: Type.Union([Type.String(), Type.Null()]),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "0b6f1c1e-5d55-4c1e-9b7a-2f0f4c3e8a11",
        provider: "zoom",
        purpose: "live",
        name: "Zoom da secretaria",
        settings: { defaultRecording: false },
        isDefault: true,
        hasCredentials: true,
        credentialsFingerprint: "3f9a0c2b7d41e8a5",
        status: "connected",
        lastCheckedAt: "2026-03-01T12:00:00.000Z",
        lastError: null,
        createdAt: "2026-03-01T11:58:00.000Z",
        updatedAt: "2026-03-01T12:00:00.000Z",
      },
    ],
  },
);
export type VideoProviderRecord = Static<typeof VideoProvider>;

export const CreateVideoProviderBody = Type.Object(
  {
    provider: StringEnum(PROVIDERS),
    purpose: StringEnum(PURPOSES),
    name: Type.String({ minLength: 1, maxLength: 100, pattern: "\\S" }),
    credentials: Type.Optional(CredentialsBody),
    settings: Type.Optional(SettingsBody),
    isDefault: Type.Optional(
      Type.Boolean({ description: "Becomes the purpose's default (the old one stops)." }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        provider: "bigbluebutton",
        purpose: "live",
        name: "BBB do campus",
        credentials: { sharedSecret: "8cd8ef52e8e101574e400365b55e11a6" },
        settings: { baseUrl: "https://bbb.example.edu/bigbluebutton" },
        isDefault: true,
      },
    ],
  },
);
export type CreateVideoProviderInput = Static<typeof CreateVideoProviderBody>;

export const UpdateVideoProviderBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: "\\S" })),
    credentials: Type.Optional(CredentialsBody),
    settings: Type.Optional(SettingsBody),
    isDefault: Type.Optional(Type.Boolean()),
    status: Type.Optional(
      StringEnum(["connected", "disconnected"] as const, {
        description: "`disconnected` keeps the connection but stops new live classes from using it.",
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ name: "Zoom (novo)", isDefault: true }] },
);
export type UpdateVideoProviderInput = Static<typeof UpdateVideoProviderBody>;

export const SORTS = ["createdAt", "-createdAt", "name", "-name"] as const;
export type VideoProviderSort = (typeof SORTS)[number];

export const ListVideoProvidersQuery = Type.Object(
  {
    ...PageQuery,
    purpose: Type.Optional(StringEnum(PURPOSES)),
    provider: Type.Optional(StringEnum(PROVIDERS)),
    status: Type.Optional(StringEnum(STATUSES)),
    sort: Type.Optional(StringEnum(SORTS, { default: "-createdAt", description: "`-` sorts descending." })),
  },
  { additionalProperties: false },
);
export type ListVideoProvidersQueryType = Static<typeof ListVideoProvidersQuery>;

export const VideoProviderPage = CappedPageOf(VideoProvider);

export const TestResult = Type.Object(
  {
    ok: Type.Boolean(),
    error: Type.Union([Type.String(), Type.Null()], {
      description: "Why the check failed (never a secret).",
    }),
    provider: VideoProvider,
  },
  {
    additionalProperties: false,
    examples: [
      {
        ok: false,
        error: "FAILED: checksumError",
        provider: {
          id: "0b6f1c1e-5d55-4c1e-9b7a-2f0f4c3e8a11",
          provider: "bigbluebutton",
          purpose: "live",
          name: "BBB do campus",
          settings: { baseUrl: "https://bbb.example.edu/bigbluebutton" },
          isDefault: true,
          hasCredentials: true,
          credentialsFingerprint: "3f9a0c2b7d41e8a5",
          status: "error",
          lastCheckedAt: "2026-03-01T12:00:00.000Z",
          lastError: "FAILED: checksumError",
          createdAt: "2026-03-01T11:58:00.000Z",
          updatedAt: "2026-03-01T12:00:00.000Z",
        },
      },
    ],
  },
);
