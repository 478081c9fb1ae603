import { Box, Button, HStack, Icon, Stack, Text } from "@chakra-ui/react";
import { useRef, useState, type ChangeEvent, type DragEvent } from "react";
import { LuCloudUpload, LuFile, LuFolderUp } from "react-icons/lu";

/** A browser attribute React's types do not know: the picker chooses a folder and gives every file its path in it. */
const FOLDER_PICKER = { webkitdirectory: "" } as Record<string, string>;

interface UploadDropZoneProps {
  busy: boolean;
  onAdd: (files: FileList | null) => void;
  texts: { drop: string; limits: string };
  /** Two buttons, to pick files or one whole folder; without them the whole area picks files. */
  pickers?: { files: string; folder: string };
  /** The start of every test id: "upload" gives upload-dropzone, upload-input… */
  testIdPrefix: string;
}

/** A drop area for the files of an upload, with the browser's picker behind it. */
export function UploadDropZone({ busy, onAdd, texts, pickers, testIdPrefix }: UploadDropZoneProps) {
  const [dragging, setDragging] = useState(false);
  const filePicker = useRef<HTMLInputElement>(null);
  const folderPicker = useRef<HTMLInputElement>(null);

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (!busy) onAdd(event.dataTransfer.files);
  }

  function picked(event: ChangeEvent<HTMLInputElement>) {
    onAdd(event.target.files);
    // The same file can be picked again after its removal.
    event.target.value = "";
  }

  const caption = (
    <Stack align="center" gap="2">
      <Icon as={LuCloudUpload} boxSize="8" color="brand.fg" />
      <Text fontWeight="medium">{texts.drop}</Text>
      <Text fontSize="sm" color="fg.muted">
        {texts.limits}
      </Text>
      {pickers && (
        <HStack gap="2" mt="2">
          <Button size="sm" variant="outline" disabled={busy} onClick={() => filePicker.current?.click()} data-testid={`${testIdPrefix}-pick-files`}>
            <LuFile /> {pickers.files}
          </Button>
          <Button size="sm" variant="outline" disabled={busy} onClick={() => folderPicker.current?.click()} data-testid={`${testIdPrefix}-pick-folder`}>
            <LuFolderUp /> {pickers.folder}
          </Button>
        </HStack>
      )}
    </Stack>
  );

  return (
    <>
      <Box
        asChild={!pickers}
        onClick={pickers ? undefined : () => filePicker.current?.click()}
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
        py={pickers ? "8" : "10"}
        px="6"
        textAlign="center"
        transition="background 0.15s, border-color 0.15s"
        {...(pickers ? {} : { cursor: "pointer", _hover: { borderColor: "brand.solid" } })}
        data-testid={`${testIdPrefix}-dropzone`}
      >
        {pickers ? (
          caption
        ) : (
          <button type="button" disabled={busy}>
            {caption}
          </button>
        )}
      </Box>
      <input ref={filePicker} type="file" multiple hidden onChange={picked} data-testid={`${testIdPrefix}-input`} />
      {pickers && <input ref={folderPicker} type="file" multiple hidden {...FOLDER_PICKER} onChange={picked} data-testid={`${testIdPrefix}-folder-input`} />}
    </>
  );
}
