import { beforeAll, describe, expect, it } from "vitest";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { makeKey } from "../../test-support/harness.js";
import { mediaDir, uploadLocal } from "../../test-support/media-client.js";
import { pdf } from "../../test-support/media-files.js";

/** Bidirectional controls in file and folder names are refused (400 naming the field), on creation and rename. */
const { h, tenants } = useApi({ env: { MEDIA_DIR: mediaDir() }, tenants: 1 });
const [t] = tenants;
let key: string;

beforeAll(async () => {
  key = await makeKey(h, t, ["media:read", "media:write", "drive:read", "drive:write"]);
});

const BIDI = [
  "\u061c",
  "\u200e",
  "\u200f",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
];
const hex = (c: string) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;

const call = callerFor(h, () => ({ tenant: t, credential: key }), WHOLE_PATHS);

function expectRefused(res: Awaited<ReturnType<typeof call>>, field: string, char: string) {
  expect(res.statusCode, `${hex(char)} in ${field}`).toBe(400);
  expect(res.json()).toMatchObject({ error: "validation_failed", details: [{ field }] });
}

describe("bidirectional controls in names", () => {
  it("refuses them in a new upload's file name, and takes right-to-left letters", async () => {
    for (const c of BIDI) {
      const res = await call("POST", "/api/institution/media/uploads", {
        filename: `fatura${c}fdp.exe`,
        contentType: "application/pdf",
        sizeBytes: 100,
      });
      expectRefused(res, "filename", c);
    }
    for (const name of ["تقرير.pdf", "דוח שנתי.pdf", "Plano de ensino.pdf"]) {
      const res = await call("POST", "/api/institution/media/uploads", {
        filename: name,
        contentType: "application/pdf",
        sizeBytes: 100,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().media.filename).toBe(name);
    }
  });

  it("refuses them when a file or a drive file is renamed, and keeps the old name", async () => {
    const folder = await call("POST", "/api/institution/drive/folders", { name: `Nomes ${Date.now()}` });
    expect(folder.statusCode).toBe(201);
    const { media } = await uploadLocal(
      h,
      t,
      key,
      { filename: "Lista.pdf", contentType: "application/pdf", bytes: pdf() },
      { folderId: folder.json().id },
    );
    for (const c of BIDI) {
      expectRefused(
        await call("PATCH", `/api/institution/media/${media.id}`, { filename: `a${c}b.pdf` }),
        "filename",
        c,
      );
      expectRefused(
        await call("PATCH", `/api/institution/drive/files/${media.id}`, { name: `a${c}b.pdf` }),
        "name",
        c,
      );
    }
    expect((await call("GET", `/api/institution/media/${media.id}`)).json().filename).toBe("Lista.pdf");
  });

  it("refuses them in drive folder names, on creation and rename", async () => {
    const folder = await call("POST", "/api/institution/drive/folders", { name: `Pasta ${Date.now()}` });
    for (const c of BIDI) {
      expectRefused(await call("POST", "/api/institution/drive/folders", { name: `x${c}y` }), "name", c);
      expectRefused(
        await call("PATCH", `/api/institution/drive/folders/${folder.json().id}`, { name: `x${c}y` }),
        "name",
        c,
      );
    }
    expect((await call("GET", `/api/institution/drive/folders/${folder.json().id}`)).json().name).toBe(
      folder.json().name,
    );
  });
});
