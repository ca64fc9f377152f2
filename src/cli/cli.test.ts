import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirInUseError } from "../db/data-dir.js";
import { openDatabase } from "../db/open-database.js";
import { passwordCredentials, tenants, users } from "../db/schema/index.js";
import { AppError } from "../platform/errors/app-error.js";
import { runCli } from "./run.js";

const dir = mkdtempSync(join(tmpdir(), "aula-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI against its own embedded database in a temporary DATA_DIR, exactly as `npm run cli` runs it. */
async function cli(...argv: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runCli(argv, { env: { DATA_DIR: dir, NODE_ENV: "test" }, out: (l) => lines.push(l) });
  return { code, lines };
}

const journal = JSON.parse(
  readFileSync(new URL("../db/migrations/meta/_journal.json", import.meta.url), "utf8"),
) as { entries: unknown[] };

describe("admin CLI", () => {
  it("says how many migrations it applied, of how many: all on a new database, then none", async () => {
    const fresh = mkdtempSync(join(tmpdir(), "aula-cli-migrate-"));
    try {
      const run = async () => {
        const lines: string[] = [];
        const env = { DATA_DIR: fresh, NODE_ENV: "test" };
        expect(await runCli(["migrate", "--json"], { env, out: (l) => lines.push(l) })).toBe(0);
        return JSON.parse(lines[0] as string);
      };
      const total = journal.entries.length;
      expect(await run()).toEqual({ migrated: true, applied: total, total });
      expect(await run()).toEqual({ migrated: true, applied: 0, total });
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it("prints usage for --help", async () => {
    const { code, lines } = await cli("--help");
    expect(code).toBe(0);
    expect(lines.join("\n")).toMatch(/tenant create[\s\S]*user create[\s\S]*migrate/);
  });

  it("creates a tenant and its administrator, printing one line of JSON", async () => {
    const { code, lines } = await cli(
      "tenant",
      "create",
      "--slug",
      "acme",
      "--name",
      "Acme",
      "--admin-email",
      "a@acme.test",
      "--admin-password",
      "s3cret-pass",
      "--json",
    );
    expect(code).toBe(0);
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0] as string);
    expect(Object.keys(out).sort()).toEqual(["adminUserId", "slug", "tenantId"]);
    expect(out.slug).toBe("acme");

    const user = await cli(
      "user",
      "create",
      "--tenant",
      "acme",
      "--email",
      "t@acme.test",
      "--name",
      "T",
      "--role",
      "teacher",
      "--json",
    );
    expect(user.code).toBe(0);

    const database = await openDatabase({ dataDir: dir });
    try {
      const [tenant] = await database.db.select().from(tenants).where(eq(tenants.id, out.tenantId));
      expect(tenant).toMatchObject({ slug: "acme", name: "Acme", plan: "free" });
      const [admin] = await database.db.select().from(users).where(eq(users.id, out.adminUserId));
      expect(admin).toMatchObject({ role: "institution_admin", email: "a@acme.test" });
      const [credential] = await database.db
        .select()
        .from(passwordCredentials)
        .where(eq(passwordCredentials.userId, out.adminUserId));
      expect(credential?.passwordHash).toMatch(/^scrypt\$/);
      expect(credential?.passwordHash).not.toContain("s3cret-pass");
    } finally {
      await database.close();
    }
  });

  it("refuses a taken slug and an invalid one, creating nothing", async () => {
    await expect(
      cli(
        "tenant",
        "create",
        "--slug",
        "acme",
        "--name",
        "Again",
        "--admin-email",
        "b@acme.test",
        "--admin-password",
        "s3cret-pass",
      ),
    ).rejects.toBeInstanceOf(AppError);
    await expect(
      cli(
        "tenant",
        "create",
        "--slug",
        "Not A Slug!",
        "--name",
        "X",
        "--admin-email",
        "x@x.test",
        "--admin-password",
        "s3cret-pass",
      ),
    ).rejects.toBeInstanceOf(AppError);
  });

  it("will not open an embedded database another process is using", async () => {
    const held = await openDatabase({ dataDir: dir });
    try {
      // The lock holds this process's own pid; pretend it is another live process (pid 1 always is).
      const { writeFileSync } = await import("node:fs");
      writeFileSync(join(dir, "pglite.lock"), "1");
      await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      await held.close();
    }
  });
});
