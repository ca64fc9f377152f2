import { useApi } from "./api.js";
import { type FakeStripe, startFakeStripe } from "./fake-stripe.js";
import type { HarnessOptions } from "./harness.js";
import { useStarted } from "./late.js";
import { billingEnv } from "./stripe-events.js";

/**
 * A fake Stripe and a harness configured for it (`billingEnv`, with `extra`), started before the file's tests and
 * closed after them (the harness first).
 */
export function useBillingApi(extra: Record<string, string> = {}, harness?: HarnessOptions) {
  const fake: FakeStripe = useStarted(
    "the fake Stripe",
    () => startFakeStripe(),
    (started) => started.close(),
  );
  const { h } = useApi({ env: () => billingEnv(fake.url, extra), harness });
  return { h, fake };
}
