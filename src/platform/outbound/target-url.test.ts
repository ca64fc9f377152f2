import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import { createDnsStub, type Resolver } from "./resolver.js";
import { checkTargetUrl, parseTarget } from "./target-url.js";

const publicDns = createDnsStub({ "hooks.example.com": ["93.184.215.14"] });

describe("checkTargetUrl", () => {
  it("accepts http and https only", async () => {
    for (const raw of ["http://hooks.example.com/x", "https://hooks.example.com:8443/x?y=1#z"]) {
      expect(await checkTargetUrl(raw, { resolve: publicDns.resolve }), raw).toMatchObject({
        ok: true,
        addresses: ["93.184.215.14"],
      });
    }
    for (const raw of [
      "ftp://hooks.example.com/",
      "file:///etc/passwd",
      "gopher://hooks.example.com:70/_x",
      "ws://hooks.example.com/",
      "javascript:alert(1)",
      "data:text/plain,x",
      "dict://hooks.example.com:11211/",
    ]) {
      expect(await checkTargetUrl(raw, { resolve: publicDns.resolve }), raw).toMatchObject({
        ok: false,
        reason: "scheme",
      });
    }
  });

  it("refuses credentials in the URL, including the `@` confusion forms", async () => {
    for (const raw of [
      "https://user:pass@hooks.example.com/",
      "https://user@hooks.example.com/",
      "http://127.0.0.1:80@hooks.example.com/",
      "http://hooks.example.com@127.0.0.1/",
    ]) {
      const result = await checkTargetUrl(raw, { resolve: publicDns.resolve });
      expect(result.ok, raw).toBe(false);
    }
    const confusing = await checkTargetUrl("http://127.0.0.1:80@hooks.example.com/", {
      resolve: publicDns.resolve,
    });
    expect(confusing).toMatchObject({ ok: false, reason: "userinfo" });
  });

  it("refuses what is not a URL, and very long URLs", async () => {
    for (const raw of [
      "",
      "hooks.example.com/x",
      "http://",
      "http://[::1/",
      `https://a.example.com/${"x".repeat(2100)}`,
    ]) {
      expect(await checkTargetUrl(raw, { resolve: publicDns.resolve }), raw).toMatchObject({
        ok: false,
        reason: "invalid_url",
      });
    }
  });

  it("treats any resolver failure, an empty answer or a hang as 'does not resolve yet'", async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error("queryA ESERVFAIL"), { code: "ESERVFAIL" });
    };
    const empty: Resolver = async () => [];
    const hanging: Resolver = () => new Promise(() => {});
    for (const resolve of [failing, empty, hanging]) {
      const result = await checkTargetUrl("https://later.example.com/", { resolve, resolveTimeoutMs: 50 });
      expect(result).toMatchObject({ ok: true, unresolved: true });
    }
  });

  it("resolves a name once, without its trailing dot, and keeps the URL as given", async () => {
    const dns = createDnsStub({ "hooks.example.com": ["93.184.215.14"] });
    const result = await checkTargetUrl("https://Hooks.Example.com./x", { resolve: dns.resolve });
    expect(result).toMatchObject({ ok: true, unresolved: false });
    expect(dns.calls.get("hooks.example.com")).toBe(1);
    if (result.ok) expect(result.url.href).toBe("https://hooks.example.com./x");
  });

  it("lets the allow-list exempt a literal and a resolved address (development and tests only)", async () => {
    const allow = [ipaddr.parseCIDR("127.0.0.2/32")];
    const dns = createDnsStub({ "receiver.example.com": ["127.0.0.2"], "canary.example.com": ["127.0.0.1"] });
    expect(await checkTargetUrl("http://127.0.0.2:8080/", { allow })).toMatchObject({ ok: true });
    expect(
      await checkTargetUrl("http://receiver.example.com/", { allow, resolve: dns.resolve }),
    ).toMatchObject({ ok: true, addresses: ["127.0.0.2"] });
    expect(await checkTargetUrl("http://127.0.0.1/", { allow })).toMatchObject({ ok: false });
    expect(await checkTargetUrl("http://canary.example.com/", { allow, resolve: dns.resolve })).toMatchObject(
      {
        ok: false,
      },
    );
  });
});

describe("parseTarget", () => {
  it("classifies the host without DNS", () => {
    expect(parseTarget("http://[2606:4700:4700::1111]:8080/")).toMatchObject({
      ok: true,
      host: { kind: "ip", address: "2606:4700:4700::1111" },
    });
    expect(parseTarget("http://0x08080808/")).toMatchObject({
      ok: true,
      host: { kind: "ip", address: "8.8.8.8" },
    });
    expect(parseTarget("https://xn--bcher-kva.example/")).toMatchObject({ ok: true, host: { kind: "name" } });
    expect(parseTarget("https://bücher.example/")).toMatchObject({
      ok: true,
      host: { kind: "name", name: "xn--bcher-kva.example" },
    });
  });
});
