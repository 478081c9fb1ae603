import { Button, CloseButton, Drawer, HStack, Icon, Portal, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuDownload } from "react-icons/lu";
import { formatBytes } from "../../documents/documentTransfer";
import { useFormatters } from "../../format";
import type { FileRowFragment } from "../../graphql/gql/graphql";
import { useCurrentUser } from "../../session/useCurrentUser";
import { FILE_ACTION, offeredBy } from "./fileActions";
import { fileIconOf } from "./fileIcon";
import { FilePreviewBody } from "./FilePreviewBody";

interface PreviewDrawerProps {
  /** The file shown; null when closed. */
  file: FileRowFragment | null;
  onClose: () => void;
  onDownload: (file: FileRowFragment) => void;
}

/** A file rendered for reading (as the server renders it), beside the table, with its download. */
export function PreviewDrawer({ file, onClose, onDownload }: PreviewDrawerProps) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  const mayDownload = file ? offeredBy(file).includes(FILE_ACTION.download) : false;
  return (
    <Drawer.Root open={file !== null} onOpenChange={(event) => !event.open && onClose()} placement="end" size="lg">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="file-preview-drawer">
            <Drawer.Header borderBottomWidth="1px">
              {file && (
                <Stack gap="2" minWidth="0" flex="1">
                  <HStack gap="2" minWidth="0" pe="8">
                    <Icon as={fileIconOf(file.name, false)} color="fg.muted" flexShrink={0} />
                    <Drawer.Title truncate title={file.name}>
                      {file.name}
                    </Drawer.Title>
                  </HStack>
                  <HStack gap="3" justify="space-between" wrap="wrap">
                    <Text fontSize="sm" color="fg.muted">
                      {formatBytes(file.size, format.number)} · {format.dateTime(file.createdAt)}
                    </Text>
                    {mayDownload && (
                      <Button size="xs" variant="outline" onClick={() => onDownload(file)} data-testid="file-preview-download">
                        <LuDownload /> {t("file.menu.download")}
                      </Button>
                    )}
                  </HStack>
                </Stack>
              )}
            </Drawer.Header>
            <Drawer.Body py="4">{file && <FilePreviewBody file={file} />}</Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t("common.close")} data-testid="file-preview-close" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
