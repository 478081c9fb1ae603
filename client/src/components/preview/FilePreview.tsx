import { Box, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import type { FilePreviewFragment } from "../../graphql/gql/graphql";

export interface FilePreviewProps {
  /** The server's rendering of the file (fragment FilePreview of graphql/preview.graphql). */
  preview: FilePreviewFragment;
  /** Where the file's bytes are (GET, sent with the session's bearer credential): drawn for PDFs and pictures, offered as a download otherwise. */
  downloadUrl: string;
}

/** A file rendered for reading: the view of its preview's kind. */
export function FilePreview({ preview }: FilePreviewProps) {
  const { t } = useTranslation();
  return (
    <Box data-testid="file-preview" data-kind={preview.kind}>
      <Text color="fg.muted">{preview.reason ? t(preview.reason.messageKey, preview.reason.params) : preview.fileName}</Text>
    </Box>
  );
}
