/**
 * The ids the reference's examples of live classes share (schemas.ts, attendance-schemas.ts), so that a class, its
 * course, its host and an attendee's record read as one story.
 */
export const EXAMPLE_ID = "3c9e2f4a-7b1d-4e8f-a5c6-0d2b4f6a8c1e";
export const EXAMPLE_COURSE = "0f8d2c4e-6a1b-4d3c-9e5f-7a8b9c0d1e2f";
export const EXAMPLE_USER = "2c4e6a8b-0d1f-4a3b-8c5d-7e9f1a2b3c4d";
