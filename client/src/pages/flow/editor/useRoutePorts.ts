import { useQuery } from "@apollo/client/react";
import { useEffect, useState } from "react";
import { FlowComponentPortsDocument } from "../../../graphql/gql/graphql";

export interface RoutePortView {
  handle: string;
  /** A message key, or the user's own text when `literal`. */
  label: string;
  literal: boolean;
}

/** How long params must stay still before the ports are asked again (typing a category's name). */
const SETTLE_MS = 300;

/**
 * A routing component's ports as its params give them (the server's `routes`: a Categorize's categories, a
 * Switch's cases and ELSE, Relevant's yes and no); none for other components.
 */
export function useRoutePorts(componentName: string, params: Record<string, unknown>, routing: boolean): RoutePortView[] {
  const [settled, setSettled] = useState(params);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(params), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [params]);
  const { data, previousData } = useQuery(FlowComponentPortsDocument, { variables: { name: componentName, params: settled }, skip: !routing });
  return (data ?? previousData)?.flowComponentPorts ?? [];
}
