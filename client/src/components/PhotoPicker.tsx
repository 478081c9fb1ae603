import { Button, HStack } from "@chakra-ui/react";
import { useRef, type ChangeEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LuImageUp, LuX } from "react-icons/lu";
import type { Problem } from "../errors";
import { photoDataUrl, PHOTO_TYPES } from "./imageToDataUrl";

/**
 * A photo as a data URL (knowledge bases, assistants): the preview, choose and remove; a file that is not a
 * PNG or JPEG, or cannot be read, is reported as the field's problem and changes nothing.
 */
export function PhotoPicker({ preview, value, onChange, onProblem, testId }: {
  preview: ReactNode;
  value: string;
  onChange: (dataUrl: string) => void;
  onProblem: (problem: Problem) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (!PHOTO_TYPES.includes(file.type)) return onProblem({ key: "errors.knowledge.avatarInvalid" });
    try {
      onChange(await photoDataUrl(file));
    } catch {
      onProblem({ key: "errors.fileError" });
    }
  }

  return (
    <HStack gap="4">
      {preview}
      <Button size="sm" variant="outline" onClick={() => input.current?.click()}>
        <LuImageUp /> {t("kb.config.choosePhoto")}
      </Button>
      {value && (
        <Button size="sm" variant="ghost" colorPalette="red" onClick={() => onChange("")}>
          <LuX /> {t("kb.config.removePhoto")}
        </Button>
      )}
      <input ref={input} type="file" accept={PHOTO_TYPES.join(",")} hidden onChange={(event) => void choose(event)} data-testid={testId} />
    </HStack>
  );
}
