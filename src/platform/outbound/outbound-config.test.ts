// Tests of src/config/outbound.ts, kept beside the code that consumes it.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config/index.js";
import { loadOutboundConfig } from "../../config/outbound.js";
import { classifyAddress } from "./address-policy.js";

describe("loadOutboundConfig", () => {
  it("has the documented defaults: no exemptions, 15 s, the contract's retry schedule, the engine's settings", () => {
    expect(loadOutboundConfig({})).toEqual({
      allowCidrs: [],
      timeoutMs: 15_000,
      retryScheduleSeconds: [5, 300, 1800, 7200, 18000, 36000, 36000],
      delivery: {
        concurrency: 100,
        endpointConcurrency: 10,
        leaseMarginSeconds: 30,
        pollMs: 1000,
        retentionDays: 30,
      },
    });
    expect(loadConfig({ DATA_DIR: ":memory:" }).outbound.allowCidrs).toEqual([]);
  });

  it("reads the delivery engine's settings and refuses values below their minimum", () => {
    const env = {
      WEBHOOK_CONCURRENCY: "7",
      WEBHOOK_ENDPOINT_CONCURRENCY: "2",
      WEBHOOK_LEASE_MARGIN_SECONDS: "3",
      WEBHOOK_POLL_MS: "250",
      WEBHOOK_RETENTION_DAYS: "7",
    };
    expect(loadOutboundConfig(env).delivery).toEqual({
      concurrency: 7,
      endpointConcurrency: 2,
      leaseMarginSeconds: 3,
      pollMs: 250,
      retentionDays: 7,
    });
    for (const [name, value] of [
      ["WEBHOOK_CONCURRENCY", "0"],
      ["WEBHOOK_ENDPOINT_CONCURRENCY", "0"],
      ["WEBHOOK_LEASE_MARGIN_SECONDS", "0"],
      ["WEBHOOK_POLL_MS", "5"],
      ["WEBHOOK_RETENTION_DAYS", "0"],
      ["WEBHOOK_CONCURRENCY", "ten"],
    ] as const) {
      expect(() => loadOutboundConfig({ [name]: value }), name).toThrow(ConfigError);
    }
  });

  it("parses OUTBOUND_ALLOW_CIDRS (IPv4, IPv6, a bare address as one host) into matchable ranges", () => {
    const { allowCidrs } = loadOutboundConfig({ OUTBOUND_ALLOW_CIDRS: " 127.0.0.2/32, fd00::/8 ,10.1.2.3" });
    expect(allowCidrs.map(([ip, bits]) => `${ip.toString()}/${bits}`)).toEqual([
      "127.0.0.2/32",
      "fd00::/8",
      "10.1.2.3/32",
    ]);
    expect(classifyAddress("127.0.0.2", allowCidrs)).toEqual({ allowed: true, via: "allow_list" });
    expect(classifyAddress("10.1.2.4", allowCidrs).allowed).toBe(false);
  });

  it("refuses malformed ranges instead of guessing what they meant", () => {
    for (const bad of [
      "127.1/8",
      "0x7f.0.0.1/32",
      "10.0.0.0/33",
      "::1/129",
      "10.0.0.0/",
      "10.0.0.0/8x",
      "10.0.0.0/-1",
      "fe80::1%eth0/64",
      "localhost",
      "10.0.0.0/8/8",
    ]) {
      expect(() => loadOutboundConfig({ OUTBOUND_ALLOW_CIDRS: bad }), bad).toThrow(ConfigError);
    }
  });

  it("reads WEBHOOK_TIMEOUT_MS and WEBHOOK_RETRY_SCHEDULE, refusing nonsense", () => {
    const c = loadOutboundConfig({ WEBHOOK_TIMEOUT_MS: "2500", WEBHOOK_RETRY_SCHEDULE: "1, 2,3" });
    expect(c.timeoutMs).toBe(2500);
    expect(c.retryScheduleSeconds).toEqual([1, 2, 3]);
    for (const bad of ["0", "-1", "abc", "1.5"]) {
      expect(() => loadOutboundConfig({ WEBHOOK_TIMEOUT_MS: bad }), bad).toThrow(ConfigError);
    }
    for (const bad of ["0", "5,,6", "-5", "1.5", "a", "5,300,", "1e3", "99999999999999999999"]) {
      expect(() => loadOutboundConfig({ WEBHOOK_RETRY_SCHEDULE: bad }), bad).toThrow(ConfigError);
    }
  });
});
