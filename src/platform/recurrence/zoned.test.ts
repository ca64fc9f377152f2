import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inZone, offsetAt, startOfLocalDay, utcToWall, wallToUtc } from "./zoned.js";

const at = (iso: string) => new Date(iso);
const wall = (local: string) => new Date(`${local}Z`);
const iso = (d: Date) => d.toISOString();

// The same answers whatever the process's own zone: each block sets `TZ` (Node applies it at once), and checks
// that it took effect. Workers share a process between files, so the zone is restored after.
describe.each([
  { tz: "UTC", offset: 0 },
  { tz: "America/Sao_Paulo", offset: -180 },
  { tz: "Asia/Kolkata", offset: 330 },
])("wall-clock time in a zone, on a server whose TZ is $tz", ({ tz, offset }) => {
  let previous: string | undefined;
  beforeAll(() => {
    previous = process.env.TZ;
    process.env.TZ = tz;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  });

  it("reads an instant's local fields in zones behind and ahead of UTC, by half and quarter hours", () => {
    expect(0 - at("2026-12-01T12:00:00Z").getTimezoneOffset()).toBe(offset);
    expect(iso(utcToWall(at("2026-12-01T22:00:00.123Z"), "America/Sao_Paulo"))).toBe(
      "2026-12-01T19:00:00.123Z",
    );
    expect(iso(utcToWall(at("2026-12-01T13:30:00Z"), "Asia/Kolkata"))).toBe("2026-12-01T19:00:00.000Z");
    expect(iso(utcToWall(at("2026-12-01T13:15:00Z"), "Asia/Kathmandu"))).toBe("2026-12-01T19:00:00.000Z");
    expect(offsetAt(at("2026-12-01T00:00:00Z"), "Asia/Kolkata")).toBe(5.5 * 3600_000);
    expect(offsetAt(at("2026-07-01T00:00:00Z"), "Europe/Berlin")).toBe(2 * 3600_000);
    const zoned = inZone("2026-12-01T13:30:00.000Z", "Asia/Kolkata");
    expect([zoned.hour, zoned.minute, zoned.zoneName]).toEqual([19, 0, "Asia/Kolkata"]);
  });

  it("names the instant of a wall time, and back", () => {
    expect(0 - at("2026-12-01T12:00:00Z").getTimezoneOffset()).toBe(offset);
    expect(iso(wallToUtc(wall("2026-12-01T19:00:00.000"), "America/Sao_Paulo"))).toBe(
      "2026-12-01T22:00:00.000Z",
    );
    expect(iso(wallToUtc(wall("2026-12-01T19:00:00.000"), "Asia/Kolkata"))).toBe("2026-12-01T13:30:00.000Z");
    expect(iso(startOfLocalDay("2026-12-01", "Asia/Kolkata"))).toBe("2026-11-30T18:30:00.000Z");
    for (const zone of ["America/Sao_Paulo", "Asia/Kolkata", "Europe/Berlin", "Australia/Lord_Howe"]) {
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 7 * 3600_000 + 60_000) {
        const instant = new Date(t);
        // Back to the same instant, except for the second reading of a repeated autumn hour (the first wins).
        const back = wallToUtc(utcToWall(instant, zone), zone).getTime();
        expect(back === t || back < t).toBe(true);
        expect(utcToWall(new Date(back), zone).getTime()).toBe(utcToWall(instant, zone).getTime());
      }
    }
  });

  it("takes the first of a repeated time and moves a skipped one forward by the gap, either side of UTC", () => {
    expect(0 - at("2026-12-01T12:00:00Z").getTimezoneOffset()).toBe(offset);
    // Berlin: 02:30 happens twice on 25 October (CEST, then CET) and not at all on 29 March.
    expect(iso(wallToUtc(wall("2026-10-25T02:30:00.000"), "Europe/Berlin"))).toBe("2026-10-25T00:30:00.000Z");
    expect(iso(wallToUtc(wall("2026-03-29T02:30:00.000"), "Europe/Berlin"))).toBe("2026-03-29T01:30:00.000Z");
    // New York: 01:30 twice on 1 November (EDT first); 02:30 skipped on 8 March, so 03:30 EDT, not 01:30 EST.
    expect(iso(wallToUtc(wall("2026-11-01T01:30:00.000"), "America/New_York"))).toBe(
      "2026-11-01T05:30:00.000Z",
    );
    expect(iso(wallToUtc(wall("2026-03-08T02:30:00.000"), "America/New_York"))).toBe(
      "2026-03-08T07:30:00.000Z",
    );
    // Lord Howe moves by half an hour: 02:15 skipped on 4 October, 01:45 twice on 5 April.
    expect(iso(wallToUtc(wall("2026-10-04T02:15:00.000"), "Australia/Lord_Howe"))).toBe(
      "2026-10-03T15:45:00.000Z",
    );
    expect(iso(wallToUtc(wall("2026-04-05T01:45:00.000"), "Australia/Lord_Howe"))).toBe(
      "2026-04-04T14:45:00.000Z",
    );
    // Santiago springs forward at midnight: 6 September starts at 01:00 (−03), not at 23:00 the day before.
    expect(iso(startOfLocalDay("2026-09-06", "America/Santiago"))).toBe("2026-09-06T04:00:00.000Z");
  });

  it("refuses a zone it does not know", () => {
    expect(() => utcToWall(at("2026-12-01T00:00:00Z"), "Mars/Olympus_Mons")).toThrow(RangeError);
    expect(() => wallToUtc(wall("2026-12-01T00:00:00.000"), "Mars/Olympus_Mons")).toThrow(RangeError);
    expect(() => inZone("2026-12-01T00:00:00Z", "Mars/Olympus_Mons")).toThrow(RangeError);
  });

  it("refuses a date-time that names no instant rather than read it in the server's zone", () => {
    expect(() => inZone("2026-12-01T19:00:00", "Asia/Kolkata")).toThrow(RangeError);
    expect(() => inZone("not a date", "Asia/Kolkata")).toThrow(RangeError);
    expect(() => inZone(new Date(Number.NaN), "Asia/Kolkata")).toThrow(RangeError);
    expect(inZone("2026-12-01T19:00:00+05:30", "Asia/Kolkata").toUTC().toISO()).toBe(
      "2026-12-01T13:30:00.000Z",
    );
  });
});
