/**
 * The SDK's tests talk to the real app listening on an ephemeral port. A tenant is reached by its host name
 * (`<slug>.localhost:<port>`) exactly as in production; since this machine's resolver does not answer
 * `*.localhost`, the tests' `fetch` connects every such name to 127.0.0.1 and leaves the URL (and so the Host
 * header) as it is. The agent is shared by the test files of a worker (they share modules) and not closed:
 * each server closes its connections when it stops.
 */
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import type { AulaOptions } from "../src/index.js";

const connect = buildConnector({});
const agent = new Agent({
  connect: (options, callback) =>
    connect(
      options.hostname.endsWith(".localhost") ? { ...options, hostname: "127.0.0.1" } : options,
      callback,
    ),
});

/** `fetch` that reaches `*.localhost` on this machine. */
export const localFetch: NonNullable<AulaOptions["fetch"]> = (input, init) =>
  undiciFetch(input, { ...(init as object), dispatcher: agent }) as unknown as Promise<Response>;

/** The harness's app listening on 127.0.0.1 at a port of its own; the port. */
export async function listen(h: Harness): Promise<number> {
  await h.app.listen({ port: 0, host: "127.0.0.1" });
  const address = h.app.server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}

/** The tenant's origin on the listening app: `http://<slug>.localhost:<port>`. */
export const originOf = (t: TestTenant, port: number) => `http://${t.host}:${port}`;
