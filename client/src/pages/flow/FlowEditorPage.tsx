import { Box, Center, Spinner } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { ReactFlowProvider } from "@xyflow/react";
import { useEffect } from "react";
import { useParams } from "react-router-dom";
import { LoadFailed } from "../../components/LoadFailed";
import { FlowComponentsDocument, FlowEditorDocument } from "../../graphql/gql/graphql";
import { FlowEditor } from "./editor/FlowEditor";

/** /flow/{id}: the flow editor, once the flow and the component registry are read. */
export default function FlowEditorPage() {
  const { id = "" } = useParams();
  const flow = useQuery(FlowEditorDocument, { variables: { id }, fetchPolicy: "network-only" });
  const components = useQuery(FlowComponentsDocument);
  const title = flow.data?.flow.title;
  useEffect(() => {
    if (title) document.title = `${title} · Cairn`;
  }, [title]);

  const failure = flow.error ?? components.error;
  return (
    <Box height="calc(100dvh - 4rem)" minHeight="480px" data-testid="flow-editor-page">
      {failure ? (
        <LoadFailed error={failure} onRetry={() => void (flow.error ? flow.refetch() : components.refetch())} />
      ) : !flow.data || !components.data ? (
        <Center height="full">
          <Spinner color="brand.solid" />
        </Center>
      ) : (
        <ReactFlowProvider>
          <FlowEditor key={flow.data.flow.id} flow={flow.data.flow} components={components.data.flowComponents} />
        </ReactFlowProvider>
      )}
    </Box>
  );
}
