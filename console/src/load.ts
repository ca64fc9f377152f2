import { useEffect, useState } from "react";
import type { Aula } from "../../sdk/src/client.js";
import { type Problem, problemOf } from "./api.js";
import { useI18n } from "./i18n.js";
import { useCall } from "./session.js";

export type Loaded<T> =
  | { state: "loading" }
  | { state: "ok"; value: T }
  | { state: "failed"; problem: Problem };

/**
 * A read the page shows, made again when the language changes (so the API's messages follow it) or when
 * `version` moves (after the page changed something).
 */
export function useLoad<T>(read: (aula: Aula) => PromiseLike<T>, version = 0): Loaded<T> {
  const { language, t } = useI18n();
  const call = useCall();
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `read` is a new function each render; the language and version say when to read again.
  useEffect(() => {
    let current = true;
    call(read).then(
      (value) => current && setLoaded({ state: "ok", value }),
      (err: unknown) => current && setLoaded({ state: "failed", problem: problemOf(err, t) }),
    );
    return () => {
      current = false;
    };
  }, [language, version, call]);
  return loaded;
}
