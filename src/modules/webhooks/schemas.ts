import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";
import { EVENT_CATALOGUE, EVENT_TYPES } from "../events/catalogue.js";

const EventTypes = Type.Array(StringEnum([...EVENT_TYPES]), {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  uniqueItems: true,
  description: "The platform events this endpoint receives.",
});

const endpointInputExample = {
  url: "https://erp.colegioaurora.com.br/webhooks/aula",
  eventTypes: ["enrollment_created", "enrollment_completed"],
  description: "Sincroniza matrículas com o ERP da secretaria",
  enabled: true,
};
const endpointExample = {
  id: "7e4f1a2b-3c5d-4e6f-8a9b-0c1d2e3f4a5b",
  ...endpointInputExample,
  disabledReason: null,
  createdAt: "2026-11-23T12:00:00.000Z",
  updatedAt: "2026-11-23T12:00:00.000Z",
};

export const CreateEndpointBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: "http(s) URL of a public host. Checked at save and at every attempt.",
    }),
    eventTypes: EventTypes,
    description: Type.Optional(Type.String({ maxLength: 500 })),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false, examples: [endpointInputExample] },
);
export type CreateEndpointInput = Static<typeof CreateEndpointBody>;

export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(CreateEndpointBody.properties.url),
    eventTypes: Type.Optional(EventTypes),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    enabled: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ eventTypes: ["enrollment_created", "enrollment_completed", "enrollment_dropped"] }],
  },
);
export type UpdateEndpointInput = Static<typeof UpdateEndpointBody>;

export const Endpoint = Type.Object(
  {
    id: Uuid,
    url: Type.String(),
    eventTypes: Type.Array(Type.String()),
    description: Type.Union([Type.String(), Type.Null()]),
    enabled: Type.Boolean(),
    disabledReason: Type.Union([Type.String(), Type.Null()]),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [endpointExample] },
);
export type EndpointRecord = Static<typeof Endpoint>;

export const CreatedEndpoint = Type.Object(
  {
    ...Endpoint.properties,
    signingSecret: Type.String({ pattern: "^whsec_[A-Za-z0-9+/=]+$" }),
  },
  {
    additionalProperties: false,
    examples: [{ ...endpointExample, signingSecret: "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD" }],
  },
);

export const ListEndpointsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const EndpointPage = PageOf(Endpoint);

export const EventTypeList = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        { name: Type.String(), schemaVersion: Type.Integer(), description: Type.String() },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        data: [
          {
            name: "enrollment_completed",
            schemaVersion: EVENT_CATALOGUE.enrollment_completed.schemaVersion,
            description: EVENT_CATALOGUE.enrollment_completed.description,
          },
        ],
      },
    ],
  },
);
