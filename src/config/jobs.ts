import { type Env, int } from "./env.js";

/** Background jobs (modules/jobs): how the worker claims and runs them. */
export interface JobsConfig {
  /** The job loop's poll when idle (JOBS_POLL_MS); a job written by this process wakes it at once. */
  pollMs: number;
  /** Jobs one worker process runs at once (JOBS_CONCURRENCY). */
  concurrency: number;
  /**
   * Jobs of one institution running at once across all workers (JOBS_PER_TENANT): one tenant's reports cannot take
   * every worker slot while another's wait.
   */
  perTenant: number;
  /** How long a claim holds without a heartbeat (JOBS_LEASE_SECONDS); a running job renews it as it progresses. */
  leaseSeconds: number;
  /** Lifetime of a report's signed download URL (REPORT_URL_TTL_SECONDS). */
  reportUrlTtlSeconds: number;
}

export function loadJobsConfig(env: Env): JobsConfig {
  return {
    pollMs: int(env, "JOBS_POLL_MS", 1000, 10),
    concurrency: int(env, "JOBS_CONCURRENCY", 2, 1),
    perTenant: int(env, "JOBS_PER_TENANT", 1, 1),
    leaseSeconds: int(env, "JOBS_LEASE_SECONDS", 60, 5),
    reportUrlTtlSeconds: int(env, "REPORT_URL_TTL_SECONDS", 3600, 60),
  };
}
