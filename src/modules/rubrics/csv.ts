/**
 * Reads CSV text (RFC 4180: comma-separated, fields in double quotes may hold commas, quotes doubled and line
 * breaks; CRLF or LF between records; a leading byte-order mark ignored). Answers the records with the line each
 * starts on, or null when a quoted field is never closed. Blank lines are skipped.
 */
export function parseCsv(text: string): { line: number; fields: string[] }[] | null {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  let touched = false;
  const endRecord = () => {
    fields.push(field);
    if (touched || fields.length > 1 || field !== "") records.push({ line: start, fields });
    fields = [];
    field = "";
    touched = false;
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
      touched = true;
    } else if (c === ",") {
      fields.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && source[i + 1] === "\n") i++;
      endRecord();
      line++;
      start = line;
    } else field += c;
  }
  if (quoted) return null;
  if (field !== "" || fields.length > 0 || touched) endRecord();
  return records;
}
