import { Center, Spinner } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { FilePreview } from "../../components/preview/FilePreview";
import { LoadFailed } from "../../components/LoadFailed";
import { FileContentPreviewDocument, type FileRowFragment } from "../../graphql/gql/graphql";
import { fileRoutes } from "../../documents/fileRoutes";

/** The file as the server renders it (PDF pages, pictures, DOCX, Markdown, sheets, e-mail, code…). */
export function FilePreviewBody({ file }: { file: FileRowFragment }) {
  const preview = useQuery(FileContentPreviewDocument, { variables: { id: file.id } });
  if (preview.data) return <FilePreview preview={preview.data.filePreview} downloadUrl={fileRoutes.download(file.id, true)} />;
  if (preview.error) return <LoadFailed error={preview.error} onRetry={() => void preview.refetch()} />;
  return (
    <Center py="16">
      <Spinner color="brand.solid" />
    </Center>
  );
}
