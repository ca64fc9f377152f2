/**
 * SSRF corpus (SECURITY.md API7). Payloads come from PayloadsAllTheThings ("Server Side Request
 * Forgery" and its cloud-instances page), the OWASP SSRF Prevention Cheat Sheet, and the CVEs of the npm
 * packages `private-ip`, `netmask` and `ip` (CVE-2020-28360, CVE-2021-28918, CVE-2021-29418,
 * CVE-2023-42282, CVE-2024-29415: octal/hex/short IPv4 forms, `::ffff:`/`::` IPv6 forms, `0`).
 * Each row records how Node's WHATWG `new URL()` normalises the host, so a change in the parser shows up
 * here before it shows up as a hole.
 */
import fc from "fast-check";
import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import type { Cidr } from "../../config/outbound.js";
import { classifyAddress, isForbiddenAddress, isForbiddenHostName } from "./address-policy.js";
import { createDnsStub, type Resolver } from "./resolver.js";
import { checkTargetUrl } from "./target-url.js";

/** Literal hosts must never be resolved: a resolver call would mean the raw string escaped the check. */
const noDns: Resolver = async (host) => {
  throw new Error(`resolver called for ${host}`);
};

/** [payload as typed after `http://`, host after `new URL()` (null: the parser rejects it)] */
const REFUSED_LITERALS: readonly (readonly [string, string | null])[] = [
  // IPv4 loopback in every notation the WHATWG parser accepts
  ["127.0.0.1", "127.0.0.1"],
  ["127.1", "127.0.0.1"],
  ["127.0.1", "127.0.0.1"],
  ["0", "0.0.0.0"],
  ["0.0.0.0", "0.0.0.0"],
  ["0.1.2.3", "0.1.2.3"],
  ["2130706433", "127.0.0.1"],
  ["0x7f000001", "127.0.0.1"],
  ["0X7F000001", "127.0.0.1"],
  ["017700000001", "127.0.0.1"],
  ["0177.0.0.1", "127.0.0.1"],
  ["000000177.0.0.1", "127.0.0.1"],
  ["0x7f.0x0.0x0.0x1", "127.0.0.1"],
  ["0x7f.1", "127.0.0.1"],
  ["127.0.0x0000001", "127.0.0.1"],
  ["127.000.000.1", "127.0.0.1"],
  ["127.0.0.1.", "127.0.0.1"],
  ["127.0.0.1:80", "127.0.0.1"],
  ["127。0。0。1", "127.0.0.1"],
  ["127．0．0．1", "127.0.0.1"],
  ["127｡0｡0｡1", "127.0.0.1"],
  ["１２７.０.０.１", "127.0.0.1"],
  ["０ｘ７ｆ.1", "127.0.0.1"],
  ["①②⑦.0.0.1", "127.0.0.1"],
  ["%31%32%37.0.0.1", "127.0.0.1"],
  ["%30x7f.1", "127.0.0.1"],
  // IPv6 loopback / unspecified and IPv4 embedded in IPv6
  ["[::]", "[::]"],
  ["[::1]", "[::1]"],
  ["[0000::1]", "[::1]"],
  ["[0:0:0:0:0:0:0:1]", "[::1]"],
  ["[::ffff:127.0.0.1]", "[::ffff:7f00:1]"],
  ["[::ffff:7f00:1]", "[::ffff:7f00:1]"],
  ["[::FFFF:7F00:1]", "[::ffff:7f00:1]"],
  ["[0:0:0:0:0:ffff:127.0.0.1]", "[::ffff:7f00:1]"],
  ["[0000:0000:0000:0000:0000:FFFF:127.0.0.1]", "[::ffff:7f00:1]"],
  ["[::ffff:0:127.0.0.1]", "[::ffff:0:7f00:1]"],
  ["[::127.0.0.1]", "[::7f00:1]"],
  ["[::7f00:1]", "[::7f00:1]"],
  ["[64:ff9b::127.0.0.1]", "[64:ff9b::7f00:1]"],
  ["[64:ff9b:1::7f00:1]", "[64:ff9b:1::7f00:1]"],
  ["[2002:7f00:1::]", "[2002:7f00:1::]"],
  ["[2002:a9fe:a9fe::1]", "[2002:a9fe:a9fe::1]"],
  ["[2001:0:4136:e378:8000:63bf:80ff:fffe]", "[2001:0:4136:e378:8000:63bf:80ff:fffe]"],
  // cloud metadata
  ["169.254.169.254", "169.254.169.254"],
  ["169.254.170.2", "169.254.170.2"],
  ["2852039166", "169.254.169.254"],
  ["0xA9FEA9FE", "169.254.169.254"],
  ["0xA9.0xFE.0xA9.0xFE", "169.254.169.254"],
  ["0251.0376.0251.0376", "169.254.169.254"],
  ["0251.00376.000251.0000376", "169.254.169.254"],
  ["0251.254.169.254", "169.254.169.254"],
  ["[::ffff:a9fe:a9fe]", "[::ffff:a9fe:a9fe]"],
  ["[0:0:0:0:0:ffff:a9fe:a9fe]", "[::ffff:a9fe:a9fe]"],
  ["[0:0:0:0:0:ffff:169.254.169.254]", "[::ffff:a9fe:a9fe]"],
  ["[fd00:ec2::254]", "[fd00:ec2::254]"],
  ["100.100.100.200", "100.100.100.200"],
  ["192.0.0.192", "192.0.0.192"],
  ["168.63.129.16", "168.63.129.16"],
  ["[::ffff:168.63.129.16]", "[::ffff:a83f:8110]"],
  // private, shared, reserved, special-purpose IPv4
  ["10.0.0.1", "10.0.0.1"],
  ["012.0.0.1", "10.0.0.1"],
  ["172.16.0.1", "172.16.0.1"],
  ["172.31.255.255", "172.31.255.255"],
  ["192.168.1.1", "192.168.1.1"],
  ["3232235777", "192.168.1.1"],
  ["100.64.0.1", "100.64.0.1"],
  ["100.127.255.255", "100.127.255.255"],
  ["198.18.0.1", "198.18.0.1"],
  ["198.19.255.255", "198.19.255.255"],
  ["192.0.2.1", "192.0.2.1"],
  ["198.51.100.1", "198.51.100.1"],
  ["203.0.113.1", "203.0.113.1"],
  ["192.88.99.1", "192.88.99.1"],
  ["224.0.0.1", "224.0.0.1"],
  ["239.255.255.250", "239.255.255.250"],
  ["240.0.0.1", "240.0.0.1"],
  ["255.255.255.255", "255.255.255.255"],
  // IPv6 non-global ranges
  ["[fe80::1]", "[fe80::1]"],
  ["[febf::1]", "[febf::1]"],
  ["[fec0::1]", "[fec0::1]"],
  ["[fc00::1]", "[fc00::1]"],
  ["[fd12:3456::1]", "[fd12:3456::1]"],
  ["[ff02::1]", "[ff02::1]"],
  ["[ff05::1:3]", "[ff05::1:3]"],
  ["[100::1]", "[100::1]"],
  ["[2001:db8::1]", "[2001:db8::1]"],
  ["[3fff::1]", "[3fff::1]"],
  ["[5f00::1]", "[5f00::1]"],
  ["[2001:2::1]", "[2001:2::1]"],
  ["[4000::1]", "[4000::1]"],
  // rejected by the URL parser itself (overflow forms from PayloadsAllTheThings)
  ["425.510.425.510", null],
  ["7147006462", null],
  ["0x41414141A9FEA9FE", null],
  ["4294967296", null],
  ["1.2.3.4.5", null],
  ["08.0.0.1", null],
  ["[fe80::1%25eth0]", null],
  ["[::ffff:127.0.0.1%25lo]", null],
];

const ACCEPTED_LITERALS: readonly (readonly [string, string])[] = [
  ["93.184.215.14", "93.184.215.14"],
  ["1.1.1.1", "1.1.1.1"],
  ["8.8.8.8", "8.8.8.8"],
  ["134744072", "8.8.8.8"],
  ["0x8.0x8.0x8.0x8", "8.8.8.8"],
  ["[2606:4700:4700::1111]", "[2606:4700:4700::1111]"],
  ["[2001:4860:4860::8888]", "[2001:4860:4860::8888]"],
  ["[::ffff:8.8.8.8]", "[::ffff:808:808]"],
  ["[64:ff9b::8.8.8.8]", "[64:ff9b::808:808]"],
  // edges of the refused ranges
  ["100.63.255.255", "100.63.255.255"],
  ["100.128.0.0", "100.128.0.0"],
  ["172.15.255.255", "172.15.255.255"],
  ["172.32.0.0", "172.32.0.0"],
  ["169.253.255.255", "169.253.255.255"],
  ["198.17.255.255", "198.17.255.255"],
  ["198.20.0.0", "198.20.0.0"],
  ["223.255.255.255", "223.255.255.255"],
  ["168.63.129.15", "168.63.129.15"],
  ["11.0.0.0", "11.0.0.0"],
  ["1.0.0.0", "1.0.0.0"],
];

describe("SSRF corpus through checkTargetUrl", () => {
  it.each(REFUSED_LITERALS)("http://%s/ is refused (new URL host: %s)", async (payload, normalised) => {
    const raw = `http://${payload}/`;
    let host: string | null;
    try {
      host = new URL(raw).hostname;
    } catch {
      host = null;
    }
    expect(host).toBe(normalised);
    const result = await checkTargetUrl(raw, { resolve: noDns });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toBe(normalised === null ? "invalid_url" : "forbidden_address");
  });

  it.each(ACCEPTED_LITERALS)("http://%s/ is accepted (new URL host: %s)", async (payload, normalised) => {
    const raw = `http://${payload}/`;
    expect(new URL(raw).hostname).toBe(normalised);
    const result = await checkTargetUrl(raw, { resolve: noDns });
    expect(result).toMatchObject({ ok: true, unresolved: false });
  });

  const names: readonly string[] = [
    "localhost",
    "LOCALHOST",
    "localhost.",
    "Ⓛocalhost",
    "foo.localhost",
    "a.b.localhost.",
    "metadata",
    "instance-data",
    "rancher-metadata",
    "metadata.google.internal",
    "metadata.google.internal.",
    "db.internal",
    "printer.local",
    "kubernetes.default.svc",
    "router.home.arpa",
    "1.0.0.127.in-addr.arpa",
    "intranet",
  ];
  it.each(names)("the name %s is refused without being resolved", async (name) => {
    const dns = createDnsStub({ [name.replace(/\.$/, "").toLowerCase()]: ["93.184.215.14"] });
    const result = await checkTargetUrl(`https://${name}/hook`, { resolve: dns.resolve });
    expect(result).toMatchObject({ ok: false, reason: "forbidden_host" });
    expect([...dns.calls.values()].reduce((a, b) => a + b, 0)).toBe(0);
  });

  const templated: readonly string[] = [
    "https://{{user.name}}.example.com/x",
    "https://{{user.name}}/x",
    "https://*.example.com/x",
    "https://a!b.example.com/x",
    "https://ex$ample.com/x",
    "https://-bad.example.com/x",
  ];
  it.each(templated)("%s is refused: templates and odd characters are never a host", async (raw) => {
    const result = await checkTargetUrl(raw, { resolve: noDns });
    expect(result).toMatchObject({ ok: false, reason: "host_syntax" });
  });

  it("refuses names whose DNS answer is, or includes, a forbidden address", async () => {
    const dns = createDnsStub({
      "169.254.169.254.nip.io": ["169.254.169.254"],
      "localtest.me": ["127.0.0.1"],
      "mixed.example.com": ["93.184.215.14", "10.0.0.5"],
      "v6.example.com": ["2606:4700:4700::1111", "::1"],
      "mapped.example.com": ["::ffff:7f00:1"],
      "compat.example.com": ["::7f00:1"],
      "wire.example.com": ["168.63.129.16"],
      "junk.example.com": ["127.1"],
    });
    for (const name of [
      "169.254.169.254.nip.io",
      "localtest.me",
      "mixed.example.com",
      "v6.example.com",
      "mapped.example.com",
      "compat.example.com",
      "wire.example.com",
      "junk.example.com",
    ]) {
      const result = await checkTargetUrl(`https://${name}/`, { resolve: dns.resolve });
      expect(result, name).toMatchObject({ ok: false, reason: "forbidden_address" });
      expect(dns.calls.get(name), name).toBe(1);
    }
  });

  it("accepts public names, and names that do not resolve at save time (checked again at delivery)", async () => {
    const dns = createDnsStub({
      "localhost-webhooks.example.com": ["93.184.215.14"],
      "dual.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
      "dns64.example.com": ["64:ff9b::5db8:d70e"],
    });
    for (const name of ["localhost-webhooks.example.com", "dual.example.com", "dns64.example.com"]) {
      const result = await checkTargetUrl(`https://${name}/hooks?x=1`, { resolve: dns.resolve });
      expect(result, name).toMatchObject({ ok: true, unresolved: false });
    }
    const missing = await checkTargetUrl("https://not-yet.example.com/", { resolve: dns.resolve });
    expect(missing).toMatchObject({ ok: true, unresolved: true, addresses: [] });
  });
});

describe("classifyAddress", () => {
  it("takes only canonical addresses: shorthands and zone ids are refused, not interpreted", () => {
    for (const ip of ["127.1", "0x7f.0.0.1", "0177.0.0.1", "2130706433", "", "localhost", "fe80::1%eth0"]) {
      expect(isForbiddenAddress(ip), ip).toBe(true);
    }
    expect(classifyAddress("2606:4700:4700::1111%eth0")).toEqual({ allowed: false, reason: "zone_id" });
  });

  it("names what it refused, including the IPv4 behind transition addresses", () => {
    expect(classifyAddress("::7f00:1")).toEqual({ allowed: false, reason: "ipv4_compatible:127.0.0.1" });
    expect(classifyAddress("::ffff:7f00:1")).toEqual({ allowed: false, reason: "ipv4_mapped:loopback" });
    expect(classifyAddress("64:ff9b::a9fe:a9fe")).toEqual({ allowed: false, reason: "nat64:cloud_metadata" });
    expect(classifyAddress("2002:7f00:1::")).toEqual({ allowed: false, reason: "6to4:127.0.0.1" });
    expect(classifyAddress("2001:0:4136:e378:8000:63bf:80ff:fffe")).toEqual({
      allowed: false,
      reason: "teredo:127.0.0.1",
    });
    expect(classifyAddress("168.63.129.16")).toEqual({ allowed: false, reason: "azure_wireserver" });
    expect(classifyAddress("fd00:ec2::254")).toEqual({ allowed: false, reason: "aws_metadata_v6" });
    expect(classifyAddress("8.8.8.8")).toEqual({ allowed: true, via: "public" });
  });

  it("exempts allow-listed ranges (also through their IPv4-mapped form) and nothing else", () => {
    const allow: Cidr[] = [ipaddr.parseCIDR("127.0.0.2/32"), ipaddr.parseCIDR("fd00::/120")];
    expect(classifyAddress("127.0.0.2", allow)).toEqual({ allowed: true, via: "allow_list" });
    expect(classifyAddress("::ffff:7f00:2", allow)).toEqual({ allowed: true, via: "allow_list" });
    expect(classifyAddress("fd00::5", allow)).toEqual({ allowed: true, via: "allow_list" });
    expect(isForbiddenAddress("127.0.0.1", allow)).toBe(true);
    expect(isForbiddenAddress("::7f00:2", allow)).toBe(true);
    expect(isForbiddenAddress("fd00::100", allow)).toBe(true);
  });
});

describe("isForbiddenHostName", () => {
  it("refuses single labels and private-use suffixes, not public names that merely contain them", () => {
    for (const name of ["localhost", "x.localhost", "metadata", "a.internal", "svc.cluster.local", "", "."]) {
      expect(isForbiddenHostName(name), name).toBe(true);
    }
    for (const name of [
      "localhost.example.com",
      "internal.example.com",
      "my-local.dev",
      "metadata.example.org",
    ]) {
      expect(isForbiddenHostName(name), name).toBe(false);
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// Property-based: every notation of every forbidden IPv4 is refused; public addresses are accepted.
// The oracle below is written from the IANA special-purpose registries, independently of the code.

type Range4 = readonly [number, number];
function r4(text: string): Range4 {
  const [addr, bits] = text.split("/") as [string, string];
  const n = addr.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
  return [n, Number(bits)];
}
const SPECIAL_V4: readonly Range4[] = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.31.196.0/24",
  "192.52.193.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "192.175.48.0/24",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "168.63.129.16/32",
].map(r4);
const inRange4 = (n: number, [base, bits]: Range4) =>
  Math.floor(n / 2 ** (32 - bits)) === base / 2 ** (32 - bits);
const isSpecial4 = (n: number) => SPECIAL_V4.some((range) => inRange4(n, range));

/** Ranges a tenant must never reach, to draw forbidden addresses from. */
const FORBIDDEN_V4: readonly Range4[] = [
  "127.0.0.0/8",
  "10.0.0.0/8",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "169.254.0.0/16",
  "100.64.0.0/10",
  "0.0.0.0/8",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "198.18.0.0/15",
  "192.0.0.0/24",
  "169.254.169.254/32",
  "100.100.100.200/32",
  "192.0.0.192/32",
  "168.63.129.16/32",
].map(r4);

const forbiddenV4 = fc
  .tuple(fc.constantFrom(...FORBIDDEN_V4), fc.nat())
  .map(([[base, bits], offset]) => base + (offset % 2 ** (32 - bits)));
const publicV4 = fc.nat({ max: 2 ** 32 - 1 }).filter((n) => !isSpecial4(n));

const octets = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255] as const;
const dotted = (n: number) => octets(n).join(".");
const hex16 = (n: number) => [(n >>> 16).toString(16), (n & 0xffff).toString(16)] as const;

type Radix = "dec" | "hex" | "HEX" | "oct";
function number(value: number, radix: Radix, padding: number): string {
  if (radix === "dec") return String(value);
  if (radix === "oct") return `0${"0".repeat(padding)}${value.toString(8)}`;
  const digits = `${"0".repeat(padding)}${value.toString(16)}`;
  return radix === "hex" ? `0x${digits}` : `0X${digits.toUpperCase()}`;
}

const FULLWIDTH_OFFSET = 0xff10 - 0x30;
function fullwidth(text: string): string {
  return text.replace(/[0-9a-zA-Z]/g, (c) => {
    if (/[0-9]/.test(c)) return String.fromCodePoint(c.codePointAt(0)! + FULLWIDTH_OFFSET);
    const base = /[a-z]/.test(c) ? 0xff41 - 0x61 : 0xff21 - 0x41;
    return String.fromCodePoint(c.codePointAt(0)! + base);
  });
}

/** Every IPv4 notation `new URL()` folds back to dotted decimal, chosen at random. */
const ipv4Notation = (n: number) =>
  fc
    .record({
      parts: fc.constantFrom(1, 2, 3, 4),
      radixes: fc.array(fc.constantFrom<Radix>("dec", "hex", "HEX", "oct"), { minLength: 4, maxLength: 4 }),
      padding: fc.nat({ max: 3 }),
      separator: fc.constantFrom(".", "。", "．", "｡"),
      trailingDot: fc.boolean(),
      width: fc.constantFrom("ascii", "fullwidth", "percent"),
    })
    .map(({ parts, radixes, padding, separator, trailingDot, width }) => {
      const o = octets(n);
      const values =
        parts === 4
          ? [...o]
          : parts === 3
            ? [o[0], o[1], o[2] * 256 + o[3]]
            : parts === 2
              ? [o[0], o[1] * 65536 + o[2] * 256 + o[3]]
              : [n];
      let host = values.map((v, i) => number(v, radixes[i]!, padding)).join(separator);
      if (trailingDot) host += ".";
      if (width === "fullwidth") host = fullwidth(host);
      if (width === "percent") host = [...host].map((c) => (/[0-9]/.test(c) ? `%3${c}` : c)).join("");
      return host;
    });

/** IPv6 spellings that carry an IPv4 address; all but mapped and NAT64 are refused whatever it is. */
const ipv6Wrappers = (n: number) => {
  const [hi, lo] = hex16(n);
  const notHi = ((n >>> 16) ^ 0xffff).toString(16);
  const notLo = ((n & 0xffff) ^ 0xffff).toString(16);
  return fc.constantFrom(
    { form: "mapped", host: `[::ffff:${dotted(n)}]` },
    { form: "mapped", host: `[::ffff:${hi}:${lo}]` },
    { form: "mapped", host: `[0:0:0:0:0:ffff:${dotted(n)}]` },
    { form: "mapped", host: `[0000:0000:0000:0000:0000:FFFF:${hi.toUpperCase()}:${lo.toUpperCase()}]` },
    { form: "nat64", host: `[64:ff9b::${dotted(n)}]` },
    { form: "nat64", host: `[64:ff9b:0:0:0:0:${hi}:${lo}]` },
    { form: "compatible", host: `[::${dotted(n)}]` },
    { form: "translated", host: `[::ffff:0:${dotted(n)}]` },
    { form: "nat64-local", host: `[64:ff9b:1:${hi}:${lo}::]` },
    { form: "6to4", host: `[2002:${hi}:${lo}::1]` },
    { form: "teredo", host: `[2001:0:4136:e378:8000:63bf:${notHi}:${notLo}]` },
    { form: "teredo-server", host: `[2001:0:${hi}:${lo}:8000:63bf:3fff:fdd2]` },
  );
};

async function refused(host: string): Promise<boolean> {
  const result = await checkTargetUrl(`http://${host}/`, { resolve: noDns });
  return !result.ok;
}

describe("property: notations", () => {
  it("every IPv4 notation of a forbidden address is refused", async () => {
    await fc.assert(
      fc.asyncProperty(
        forbiddenV4.chain((n) => fc.tuple(fc.constant(n), ipv4Notation(n))),
        async ([n, host]) => {
          expect(new URL(`http://${host}/`).hostname).toBe(dotted(n));
          expect(await refused(host)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("every IPv6 form that embeds a forbidden IPv4 is refused", async () => {
    await fc.assert(
      fc.asyncProperty(forbiddenV4.chain(ipv6Wrappers), async ({ host }) => {
        expect(await refused(host)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("a public IPv4 is accepted in every notation; in IPv6 only as mapped or NAT64", async () => {
    await fc.assert(
      fc.asyncProperty(
        publicV4.chain((n) => fc.tuple(fc.constant(n), ipv4Notation(n), ipv6Wrappers(n))),
        async ([n, v4host, { form, host: v6host }]) => {
          expect(new URL(`http://${v4host}/`).hostname).toBe(dotted(n));
          expect(await refused(v4host)).toBe(false);
          expect(await refused(v6host)).toBe(form !== "mapped" && form !== "nat64");
        },
      ),
      { numRuns: 500 },
    );
  });
});

// IPv6: global unicast is 2000::/3 minus the special-purpose blocks inside it.
const parts8 = fc.array(fc.nat({ max: 0xffff }), { minLength: 8, maxLength: 8 });
function isSpecialGlobal6(p: readonly number[]): boolean {
  const [a = 0, b = 0, c = 0] = p;
  return (
    (a === 0x2001 && b < 0x200) || // 2001::/23 IETF protocol assignments (Teredo, benchmarking, ORCHID, …)
    (a === 0x2001 && b === 0xdb8) || // documentation
    a === 0x2002 || // 6to4
    (a === 0x2620 && b === 0x4f && c === 0x8000) || // AS112
    (a === 0x3fff && b < 0x1000) // documentation (RFC 9637)
  );
}
const publicV6 = parts8
  .map((p) => [0x2000 + (p[0]! % 0x2000), ...p.slice(1)])
  .filter((p) => !isSpecialGlobal6(p));
const nonGlobalV6 = parts8
  .map((p) => [p[0]! < 0x2000 ? p[0]! : 0x4000 + (p[0]! % 0xc000), ...p.slice(1)])
  .filter((p) => {
    const zeros = (k: number) => p.slice(0, k).every((x) => x === 0);
    const mapped = zeros(5) && p[5] === 0xffff;
    const nat64 = p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0);
    return !mapped && !nat64;
  });

const spell6 = (p: readonly number[]) =>
  fc.record({ pad: fc.boolean(), upper: fc.boolean() }).map(({ pad, upper }) => {
    const text = p.map((x) => (pad ? x.toString(16).padStart(4, "0") : x.toString(16))).join(":");
    return `[${upper ? text.toUpperCase() : text}]`;
  });

describe("property: IPv6", () => {
  it("random global unicast addresses are accepted", async () => {
    await fc.assert(
      fc.asyncProperty(publicV6.chain(spell6), async (host) => {
        expect(await refused(host)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("random addresses outside 2000::/3 are refused (apart from mapped/NAT64 forms of public IPv4)", async () => {
    await fc.assert(
      fc.asyncProperty(nonGlobalV6.chain(spell6), async (host) => {
        expect(await refused(host)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("special blocks inside 2000::/3 are refused", async () => {
    const special = parts8
      .chain((p) =>
        fc.constantFrom(
          [0x2001, p[1]! % 0x200, ...p.slice(2)],
          [0x2001, 0xdb8, ...p.slice(2)],
          [0x2002, ...p.slice(1)],
          [0x2620, 0x4f, 0x8000, ...p.slice(3)],
          [0x3fff, p[1]! % 0x1000, ...p.slice(2)],
        ),
      )
      .chain(spell6);
    await fc.assert(
      fc.asyncProperty(special, async (host) => {
        expect(await refused(host)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
