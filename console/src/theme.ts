import type { Aula } from "../../sdk/src/client.js";

/**
 * Wears the institution's active theme: the custom properties the API compiles (`properties`, the names and values
 * its `css` sets on `:root`), set through the CSSOM (which the Content-Security-Policy leaves alone, unlike a
 * <style> element). The names come from the API, so the console's style sheet and the API cannot disagree on them.
 * The theme's own `customCss` is written for the learners' pages and is not applied to the console. Called at start
 * (the route is public, so the sign-in page wears it too) and again after another theme is activated.
 */
export async function applyTheme(aula: Aula): Promise<void> {
  let compiled: Awaited<ReturnType<Aula["themes"]["active"]["variables"]["get"]>>;
  try {
    compiled = await aula.themes.active.variables.get();
  } catch {
    return; // The console's own defaults stand in.
  }
  if (compiled === undefined) return;
  const root = document.documentElement.style;
  for (const [name, value] of Object.entries(compiled.properties)) root.setProperty(name, value);
}
