import { Center, Spinner } from "@chakra-ui/react";
import type { FileRowFragment } from "../../graphql/gql/graphql";

/** The rendered file, once the server's `filePreview` is merged (files-server). */
export function FilePreviewBody({ file }: { file: FileRowFragment }) {
  return (
    <Center py="10" data-file={file.id}>
      <Spinner color="brand.solid" />
    </Center>
  );
}
