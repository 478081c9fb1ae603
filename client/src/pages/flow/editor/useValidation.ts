import { useApolloClient } from "@apollo/client/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ValidateFlowDocument } from "../../../graphql/gql/graphql";
import type { FlowProblem } from "../flowTypes";
import type { FlowDslView } from "./flowGraph";

const SETTLE_MS = 400;

/**
 * What keeps the flow from running as drawn, as the server's validateFlow says (the components' own checks and the
 * flow's rules, §5), asked again a moment after each change and in the user's language. Problems are kept by node.
 */
export function useValidation(dsl: () => FlowDslView, revision: number) {
  const client = useApolloClient();
  const { i18n } = useTranslation();
  const [problems, setProblems] = useState<FlowProblem[] | null>(null);
  const latest = useRef(dsl);
  latest.current = dsl;

  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      client
        .query({ query: ValidateFlowDocument, variables: { dsl: latest.current() as unknown as Record<string, unknown> }, fetchPolicy: "no-cache" })
        .then(({ data }) => current && data && setProblems(data.validateFlow))
        .catch(() => undefined); // a failed check leaves the last answer; the save reports the network
    }, revision === 0 && problems === null ? 0 : SETTLE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // asked again on each change and each change of language; the DSL is read when the pause ends
  }, [client, revision, i18n.language]);

  return useMemo(() => {
    const byNode = new Map<string, FlowProblem[]>();
    for (const problem of problems ?? []) if (problem.componentId) byNode.set(problem.componentId, [...(byNode.get(problem.componentId) ?? []), problem]);
    return { problems: problems ?? [], checked: problems !== null, byNode, flowProblems: (problems ?? []).filter((problem) => !problem.componentId) };
  }, [problems]);
}
