import type { ParamIssue } from "../../../platform/param-spec";
import type { RoutePort } from "../../component";
import type { FlowDsl } from "../../dsl";

/** A route that leads to a component the flow does not have (a deleted node, a typo in an imported file). */
export function unknownRouteTargets(routes: RoutePort[], flow: FlowDsl, pathOf: (route: RoutePort) => string): ParamIssue[] {
  return routes.flatMap((route): ParamIssue[] =>
    route.target && !flow.components[route.target] ? [{ path: pathOf(route), code: "reference", messageKey: "flow.errors.unknownRouteTarget", params: { target: route.target } }] : [],
  );
}
