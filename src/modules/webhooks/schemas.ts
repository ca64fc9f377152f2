import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";
import { EVENT_TYPES } from "../events/catalogue.js";

const EventTypes = Type.Array(StringEnum([...EVENT_TYPES]), {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  uniqueItems: true,
  description: "The platform events this endpoint receives.",
});

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
  { additionalProperties: false },
);
export type CreateEndpointInput = Static<typeof CreateEndpointBody>;

export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(CreateEndpointBody.properties.url),
    eventTypes: Type.Optional(EventTypes),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
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
  { additionalProperties: false },
);
export type EndpointRecord = Static<typeof Endpoint>;

export const CreatedEndpoint = Type.Object(
  {
    ...Endpoint.properties,
    signingSecret: Type.String({ pattern: "^whsec_[A-Za-z0-9+/=]+$" }),
  },
  { additionalProperties: false },
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
  { additionalProperties: false },
);
