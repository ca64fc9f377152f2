import type { Fixtures } from "./fixture.js";

export const fixtures: Fixtures = {};
