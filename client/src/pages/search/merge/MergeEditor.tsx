import { Skeleton, Stack } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { LoadFailed } from "../../../components/LoadFailed";
import { MergeSourcesDocument } from "../../../graphql/gql/graphql";
import { MergeForm } from "./MergeForm";

/** Reads the chosen chunks (refused whole when one of them cannot be read), then lets the user merge them. */
export function MergeEditor({ chunkIds }: { chunkIds: string[] }) {
  const { data, loading, error, refetch } = useQuery(MergeSourcesDocument, { variables: { chunkIds }, fetchPolicy: "network-only" });
  if (loading && !data) {
    return (
      <Stack gap="3">
        <Skeleton height="20" rounded="l3" />
        <Skeleton height="20" rounded="l3" />
        <Skeleton height="40" rounded="l3" />
      </Stack>
    );
  }
  if (error || !data) return <LoadFailed error={error} onRetry={() => void refetch()} />;
  return <MergeForm sources={data.mergeSources} />;
}
