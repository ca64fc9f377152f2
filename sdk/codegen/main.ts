/** `npm run sdk:generate`: writes sdk/src/generated/ from the document the server serves. */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { servedDocument } from "./document.js";
import { GENERATED_FILES, generateSources } from "./generate.js";

const OUT = fileURLToPath(new URL("../src/generated/", import.meta.url));

const sources = await generateSources(await servedDocument());
for (const file of GENERATED_FILES) {
  await writeFile(`${OUT}${file}`, sources[file]);
  console.log(`wrote sdk/src/generated/${file} (${sources[file].length} characters)`);
}
