import { DateTime } from "luxon";

export const PERIODS = ["day", "week", "month"] as const;
export type Period = (typeof PERIODS)[number];

/** The window `now` falls in, starting at midnight in the institution's time zone (weeks start on Monday). */
export function windowOf(period: Period, timezone: string, now = new Date()): { start: Date; end: Date } {
  let local = DateTime.fromJSDate(now).setZone(timezone);
  if (!local.isValid) local = DateTime.fromJSDate(now).setZone("UTC");
  const start = local.startOf(period);
  return { start: start.toJSDate(), end: start.plus({ [period]: 1 }).toJSDate() };
}

/** Whole seconds until the window resets, at least 1 (a Retry-After of 0 would invite a retry storm). */
export function secondsUntil(end: Date, now = new Date()): number {
  return Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
}
