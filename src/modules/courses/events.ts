import { Type } from "typebox";
import { StringEnum, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, exampleOf } from "../events/define.js";
import { COURSE_STATUSES, Course } from "./schemas.js";

const SAMPLE_COURSE = exampleOf(Course);

/** Every course lifecycle event carries the course as `GET /courses/:id` answers it. */
const CourseLifecycle = Type.Object({
  courseId: Uuid,
  title: Type.String(),
  status: StringEnum(COURSE_STATUSES),
  course: Type.Object(Course.properties, {
    description: "The course as `GET /courses/:id` answers it: after the change, or just before deletion.",
  }),
});

const sample = (status: (typeof COURSE_STATUSES)[number]) => ({
  courseId: SAMPLE_COURSE.id,
  title: SAMPLE_COURSE.title,
  status,
  course: { ...SAMPLE_COURSE, status },
});

export const courseEvents = {
  course_created: defineEvent({
    schemaVersion: 1,
    description: "A course was created.",
    payload: CourseLifecycle,
    sample: sample("draft"),
  }),
  course_published: defineEvent({
    schemaVersion: 1,
    description: "A course was published.",
    payload: CourseLifecycle,
    sample: sample("published"),
  }),
  course_archived: defineEvent({
    schemaVersion: 1,
    description: "A course was archived.",
    payload: CourseLifecycle,
    sample: sample("archived"),
  }),
  course_deleted: defineEvent({
    schemaVersion: 1,
    description: "A course was deleted.",
    payload: CourseLifecycle,
    sample: sample("published"),
  }),
};
