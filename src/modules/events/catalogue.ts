import type { Static, TSchema } from "typebox";
import { aiLimitEvents } from "../ai-limits/events.js";
import { assignmentEvents } from "../assignments/events.js";
import { automationEvents } from "../automations/events.js";
import { certificateEvents } from "../certificates/events.js";
import { classEvents } from "../classes/events.js";
import { courseEvents } from "../courses/events.js";
import { emailEvents } from "../email/events.js";
import { enrollmentEvents } from "../enrollments/events.js";
import { gamificationEvents } from "../gamification/events.js";
import { gradeEvents } from "../gradebook/events.js";
import { inviteEvents } from "../invites/events.js";
import { jobEvents } from "../jobs/events.js";
import { learningPathEvents } from "../learning-paths/events.js";
import { liveClassEvents } from "../live-classes/events.js";
import { mediaEvents } from "../media/events.js";
import { quizEvents } from "../quizzes/events.js";
import { ragEvents } from "../rag/events.js";
import { reportEvents } from "../reports/events.js";
import { settingsEvents } from "../settings/events.js";
import { tagEvents } from "../tags/events.js";
import { themeEvents } from "../themes/events.js";
import { userEvents } from "../users/events.js";
import { SAMPLE_ID } from "./define.js";

/**
 * The platform events automations and webhook endpoints can trigger on. Each module declares its own events
 * (`<module>/events.ts`: payload schema, sample, version; see define.ts); this composes them, by group.
 */
export const EVENT_DEFINITIONS = {
  ...courseEvents,
  ...enrollmentEvents,
  ...learningPathEvents,
  ...quizEvents,
  ...assignmentEvents,
  ...gradeEvents,
  ...userEvents,
  ...classEvents,
  ...inviteEvents,
  ...tagEvents,
  ...mediaEvents,
  ...liveClassEvents,
  ...emailEvents,
  ...settingsEvents,
  ...themeEvents,
  ...aiLimitEvents,
  ...ragEvents,
  ...automationEvents,
  ...certificateEvents,
  ...reportEvents,
  ...jobEvents,
  ...gamificationEvents,
};

type Definitions = typeof EVENT_DEFINITIONS;
export type EventType = keyof Definitions;

/** What each event's `data` holds. */
export type EventPayloads = {
  [K in EventType]: Definitions[K]["payload"] extends TSchema ? Static<Definitions[K]["payload"]> : never;
};

export const EVENT_TYPES = Object.keys(EVENT_DEFINITIONS) as EventType[];

export const EVENT_CATALOGUE = Object.fromEntries(
  EVENT_TYPES.map((type) => {
    const { schemaVersion, description } = EVENT_DEFINITIONS[type];
    return [type, { schemaVersion, description }];
  }),
) as { readonly [K in EventType]: { schemaVersion: number; description: string } };

/** A plausible payload per event, for an automation's test run when no event is given. */
export const EVENT_SAMPLES = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, EVENT_DEFINITIONS[type].sample]),
) as { readonly [K in EventType]: EventPayloads[K] };

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_DEFINITIONS, value);
}

/** Who caused an event. */
export type EventActor =
  | { type: "user"; id: string }
  | { type: "api_key"; id: string }
  | { type: "system" }
  | { type: "webhook"; automationId: string };

/** The user an event is about, as it was when it happened (`{{user.*}}`). */
export interface EventSubject {
  id: string;
  name: string;
  email: string;
  role: string;
}

export const SAMPLE_SUBJECT: EventSubject = {
  id: SAMPLE_ID,
  name: "Maria Exemplo",
  email: "maria@example.com",
  role: "student",
};
