import { Center, Skeleton } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useTranslation } from "react-i18next";
import { describeError } from "../../../errors";
import { KnowledgeGraphDocument } from "../../../graphql/gql/graphql";
import { KnowledgeGraphView } from "./KnowledgeGraphView";
import { MindMapView } from "../../../components/mind-map/MindMapView";

/** The knowledge base's graph, drawn as a graph or as a mind map. */
export function GraphTab({ knowledgeBaseId, mode }: { knowledgeBaseId: string; mode: "graph" | "mindMap" }) {
  const { i18n } = useTranslation();
  const { data, loading, error } = useQuery(KnowledgeGraphDocument, { variables: { knowledgeBaseId } });
  if (loading && !data) return <Skeleton height="96" rounded="l3" />;
  if (error && !data) return <Center py="12" color="fg.muted">{describeError(error, i18n)}</Center>;
  const graph = data?.knowledgeGraph;
  return mode === "graph" ? <KnowledgeGraphView nodes={graph?.nodes ?? []} edges={graph?.edges ?? []} /> : <MindMapView mindMap={graph?.mindMap} />;
}
