import type { Fixtures } from "./fixture.js";

/** The settings are one document per institution: no ids, so tenant isolation is proven in their own tests. */
export const fixtures: Fixtures = {
  "GET /api/institution/settings": { single: true },
  "PATCH /api/institution/settings": { body: { inactivity: { userInactiveDays: 45 } } },
  "GET /api/institution/settings/schema": { single: true },
};
