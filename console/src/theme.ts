import type { Aula } from "../../sdk/src/client.js";

/** The theme variables the console's style sheet reads, by the name the API gives them. */
const PROPERTIES = {
  primaryColor: "--aula-primary-color",
  secondaryColor: "--aula-secondary-color",
  backgroundColor: "--aula-background-color",
  textColor: "--aula-text-color",
  linkColor: "--aula-link-color",
  fontHeading: "--aula-font-heading",
  fontBody: "--aula-font-body",
  borderRadiusPx: "--aula-border-radius",
} as const;

/**
 * Wears the institution's active theme: its variables, read from the public route the sign-in page can use too,
 * set as custom properties through the CSSOM (which the Content-Security-Policy leaves alone, unlike a <style>
 * element). The theme's own `customCss` is written for the learners' pages and is not applied to the console.
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
  for (const [name, property] of Object.entries(PROPERTIES)) {
    const value = compiled.variables[name as keyof typeof PROPERTIES];
    if (typeof value === "number") root.setProperty(property, `${value}px`);
    else if (name.startsWith("font")) root.setProperty(property, `"${value}", system-ui, sans-serif`);
    else root.setProperty(property, value);
  }
}
