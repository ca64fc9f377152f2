import { runCli, UsageError } from "./cli/run.js";
import { ConfigError } from "./config/index.js";
import { EmbeddedDatabaseError } from "./db/data-dir.js";
import { AppError } from "./platform/errors/app-error.js";
import { translate } from "./platform/i18n/translate.js";

runCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => console.log(line),
  progress: (line) => console.error(line),
}).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError || err instanceof ConfigError) {
      console.error(`error: ${err.message}\n\nRun with --help for usage.`);
    } else if (err instanceof EmbeddedDatabaseError) {
      console.error(`error: ${err.message}`);
    } else if (err instanceof AppError) {
      const details = (err.details ?? [])
        .map((d) => `\n  ${d.field}: ${translate("en-US", d.key, d.params)}`)
        .join("");
      console.error(`error: ${translate("en-US", err.messageKey, err.params)}${details}`);
    } else if (err instanceof TypeError && (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      console.error(`error: ${err.message}\n\nRun with --help for usage.`);
    } else {
      console.error(err);
    }
    process.exit(1);
  },
);
