import { parseArgs } from "node:util";
import { loadConfig } from "../config/index.js";
import { EMBEDDED_WAIT_MS } from "../db/data-dir.js";
import { migrationSummary } from "../db/migrations-folder.js";
import { openDatabase } from "../db/open-database.js";
import { setPassword } from "../modules/auth/service.js";
import { createTenant, findTenantBySlug } from "../modules/tenants/service.js";
import { createUser } from "../modules/users/service.js";
import { ROLES, type Role } from "../platform/auth/types.js";

const HELP = `Aula admin CLI

Usage: npm run cli -- <command> [options]

Commands:
  tenant create --slug <slug> --name <name> --admin-email <email> --admin-password <password>
                [--admin-name <name>] [--json]
      Creates a tenant (plan "free") and its first institution_admin.
      --json prints {"tenantId","slug","adminUserId"} on one line.
  user create --tenant <slug> --email <email> --name <name> --role <student|teacher|institution_admin>
              [--password <password>] [--json]
      Creates a user in a tenant, within the plan's student limit; --password lets the user sign in.
  migrate
      Applies pending database migrations (the server also does this at start).
  --help
      Shows this text.

The database is the one the server uses: DATABASE_URL, or PGlite in DATA_DIR (default ./data). While
\`npm start\` runs on the embedded database, the CLI goes through it (its socket in DATA_DIR/socket);
otherwise it opens DATA_DIR itself. What it does with the database is said on stderr.`;

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const v = values[name];
  if (typeof v !== "string" || v === "") throw new UsageError(`--${name} is required`);
  return v;
}

export class UsageError extends Error {}

export interface CliIo {
  env: Record<string, string | undefined>;
  /** The command's answer (stdout): with --json, one line a program can read. */
  out: (line: string) => void;
  /** What it is doing meanwhile (stderr): the database it reached, the migrations. */
  progress?: (line: string) => void;
}

/** Runs one CLI command; returns the exit code. Errors it cannot explain are thrown. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: "boolean" },
      json: { type: "boolean" },
      slug: { type: "string" },
      name: { type: "string" },
      "admin-email": { type: "string" },
      "admin-password": { type: "string" },
      "admin-name": { type: "string" },
      tenant: { type: "string" },
      email: { type: "string" },
      role: { type: "string" },
      password: { type: "string" },
    },
  });
  const command = positionals.join(" ");
  if (values.help || command === "" || command === "help") {
    io.out(HELP);
    return 0;
  }
  if (!["tenant create", "user create", "migrate"].includes(command))
    throw new UsageError(`unknown command "${command}"`);

  const config = loadConfig({ LOG_LEVEL: "silent", ...io.env });
  const say = io.progress ?? (() => {});
  const database = await openDatabase({
    url: config.db.url,
    dataDir: config.db.dataDir,
    poolSize: 2,
    embedded: "join-or-open",
    waitMs: EMBEDDED_WAIT_MS,
    onProgress: say,
  });
  try {
    say(`database: ${database.description}`);
    const report = await database.migrate();
    if (command === "migrate") {
      io.out(
        values.json
          ? JSON.stringify({ migrated: true, ...report })
          : `migrations: ${migrationSummary(report)}`,
      );
      return 0;
    }
    say(`migrations: ${migrationSummary(report)}`);
    if (command === "tenant create") {
      const created = await createTenant(database.db, config.plans, {
        slug: required(values, "slug"),
        name: required(values, "name"),
        adminEmail: required(values, "admin-email"),
        adminPassword: required(values, "admin-password"),
        adminName: values["admin-name"],
      });
      io.out(
        values.json
          ? JSON.stringify(created)
          : `tenant ${created.slug} created (${created.tenantId}); admin user ${created.adminUserId}\n` +
              `  API host: ${created.slug}.${config.baseDomain}:${config.port}`,
      );
      return 0;
    }
    const tenant = await findTenantBySlug(database.db, required(values, "tenant"));
    if (tenant === undefined) throw new UsageError(`no tenant with slug "${values.tenant}"`);
    const role = required(values, "role");
    if (!(ROLES as readonly string[]).includes(role))
      throw new UsageError(`--role must be one of ${ROLES.join(", ")}`);
    const user = await createUser(
      database.db,
      config.plans,
      tenant.id,
      { kind: "system" },
      {
        name: required(values, "name"),
        email: required(values, "email"),
        role: role as Role,
      },
      // The operator's CLI takes no custom profile values; the institution's staff complete required ones.
      { profileRequired: false },
    );
    if (typeof values.password === "string")
      await setPassword(database.db, tenant.id, user.id, values.password);
    io.out(
      values.json ? JSON.stringify({ userId: user.id, tenantId: tenant.id }) : `user ${user.id} created`,
    );
    return 0;
  } finally {
    await database.close();
  }
}
