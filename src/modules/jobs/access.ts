import { admins } from "../../platform/auth/access.js";

/**
 * Jobs are, so far, report runs (RESOURCES.md 4.36: "any (owner key)"): reading or canceling one takes what running
 * a report takes, `reports:read` on a key or an administrator's session. A job's results can hold any of the
 * institution's people, so no narrower audience sees them.
 */
export const jobsAccess = admins("reports:read");
