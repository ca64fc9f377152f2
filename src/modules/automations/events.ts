import { Type } from "typebox";
import { defineEvent } from "../events/define.js";

export const automationEvents = {
  webhook: defineEvent({
    schemaVersion: 1,
    description: "A JSON object arrived at an automation's inbound webhook URL.",
    payload: Type.Record(Type.String(), Type.Unknown(), {
      description: "The JSON object posted to the automation's inbound webhook URL, as sent.",
    }),
    sample: { example: true },
  }),
};
