/**
 * Runs (m) alone: `BENCH_MEDIA_UPLOAD_MIB=1024 [BENCH_DATABASE_URL=postgres://…] node dist-bench/bench/media-upload-main.js` after `npm run prebench`
 * (npm run bench runs it too, among the other scenarios).
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { measureMediaUpload } from "./media-upload.js";

const root = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
const size = Number(process.env.BENCH_MEDIA_UPLOAD_MIB ?? 1024);
measureMediaUpload(root, size, process.env.BENCH_DATABASE_URL)
  .then((result) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n`))
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
