import { Box, Icon, Stack, Text } from "@chakra-ui/react";
import { useRef, useState, type DragEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuCloudUpload } from "react-icons/lu";
import { MAX_FILES_PER_UPLOAD } from "../../../documents/documentTransfer";
import type { Upload } from "./useUpload";

/** Click to pick files, or drop them here. */
export function DropZone({ upload }: { upload: Upload }) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (!upload.busy) upload.add(event.dataTransfer.files);
  }

  return (
    <>
      <Box
        asChild
        onClick={() => input.current?.click()}
        onDragOver={(event: DragEvent) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        borderWidth="2px"
        borderStyle="dashed"
        borderColor={dragging ? "brand.solid" : "border.emphasized"}
        bg={dragging ? "brand.subtle" : "bg.subtle"}
        rounded="l3"
        py="10"
        px="6"
        textAlign="center"
        cursor="pointer"
        transition="background 0.15s, border-color 0.15s"
        _hover={{ borderColor: "brand.solid" }}
        data-testid="upload-dropzone"
      >
        <button type="button" disabled={upload.busy}>
          <Stack align="center" gap="2">
            <Icon as={LuCloudUpload} boxSize="8" color="brand.fg" />
            <Text fontWeight="medium">{t("kb.upload.drop")}</Text>
            <Text fontSize="sm" color="fg.muted">
              {t("kb.upload.limits", { files: MAX_FILES_PER_UPLOAD, size: "10 MB" })}
            </Text>
          </Stack>
        </button>
      </Box>
      <input ref={input} type="file" multiple hidden onChange={(event) => (upload.add(event.target.files), (event.target.value = ""))} data-testid="upload-input" />
    </>
  );
}
