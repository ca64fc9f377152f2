/**
 * RFC 4180 CSV, as spreadsheets export it: fields separated by commas (or semicolons, which spreadsheets in
 * pt-BR, es-ES and fr-FR write, chosen by the header line), quoted fields holding commas, line breaks and doubled
 * quotes, CRLF or LF line ends, a UTF-8 byte-order mark ignored. Hand-written: the console needs one format
 * and a few dozen lines, not a library in its bundle.
 */
export function parseCsv(text: string): string[][] {
  const input = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const firstLine = input.slice(0, input.search(/\r?\n|$/));
  const separator = firstLine.includes(";") && !firstLine.includes(",") ? ";" : ",";
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (quoted) {
      if (c === '"' && input[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"' && field === "") {
      quoted = true;
    } else if (c === separator) {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && input[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else {
      field += c;
    }
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  // Blank lines (a trailing newline, an empty line between records) are no records.
  return rows.filter((r) => r.some((f) => f.trim() !== ""));
}

export interface CsvUser {
  /** The record's place among the file's records, from 1 (the header not counted). */
  row: number;
  name: string;
  email: string;
  role: string;
}

/**
 * The users of a file with a header naming `name`, `email` and `role` (any order, any case); undefined when a
 * column is missing. Values are trimmed; the API judges them.
 */
export function usersOfCsv(text: string): CsvUser[] | undefined {
  const [header, ...records] = parseCsv(text);
  if (header === undefined) return undefined;
  const columns = header.map((h) => h.trim().toLowerCase());
  const at = (name: string) => columns.indexOf(name);
  const [name, email, role] = [at("name"), at("email"), at("role")];
  if (name < 0 || email < 0 || role < 0) return undefined;
  return records.map((r, i) => ({
    row: i + 1,
    name: (r[name] ?? "").trim(),
    email: (r[email] ?? "").trim(),
    role: (r[role] ?? "").trim(),
  }));
}
