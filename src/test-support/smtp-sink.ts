/** A real SMTP server for tests (smtp-server), parsing each mail with mailparser. */
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface SmtpSink {
  url: string;
  mails: ParsedMail[];
  /** Reply codes to answer the next DATA commands with, in order (e.g. `[451]`), before accepting again. */
  refuseNext: number[];
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ParsedMail[] = [];
  const refuseNext: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const code = refuseNext.shift();
          if (code !== undefined) {
            callback(Object.assign(new Error(`refused by the test (${code})`), { responseCode: code }));
            return;
          }
          mails.push(parsed);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refuseNext,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
