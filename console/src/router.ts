import { useEffect, useState } from "react";

/** The console's pages, by their path below /admin. */
export type Route =
  | "dashboard"
  | "keys"
  | "users"
  | "courses"
  | "webhooks"
  | "automations"
  | "settings"
  | "billing";

const PATHS: Readonly<Record<Route, string>> = {
  dashboard: "/admin",
  keys: "/admin/api-keys",
  users: "/admin/users",
  courses: "/admin/courses",
  webhooks: "/admin/webhooks",
  automations: "/admin/automations",
  settings: "/admin/settings",
  billing: "/admin/billing",
};

function routeOf(pathname: string): Route {
  const path = pathname.replace(/\/+$/, "");
  const found = (Object.keys(PATHS) as Route[]).find((route) => PATHS[route] === path);
  return found ?? "dashboard";
}

export const pathOf = (route: Route) => PATHS[route];

/** The current page, following links the console makes (pushState) and the browser's back and forward. */
export function useRoute(): [Route, (route: Route) => void] {
  const [route, setRoute] = useState<Route>(() => routeOf(window.location.pathname));
  useEffect(() => {
    const onPop = () => setRoute(routeOf(window.location.pathname));
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  const go = (next: Route) => {
    if (window.location.pathname !== PATHS[next]) window.history.pushState(null, "", PATHS[next]);
    setRoute(next);
  };
  return [route, go];
}
