import { Avatar, Button, Flex, HStack, Stack, Text } from "@chakra-ui/react";
import { useRef, type ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuImageUp, LuTrash2 } from "react-icons/lu";
import type { ProfileForm } from "./useProfileForm";

/** The server's limits for a profile photo. */
const AVATAR_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"];
const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read"));
    reader.readAsDataURL(file);
  });
}

/** The profile photo: a preview (or the name's initials), upload and remove; checked against the server's limits first. */
export function ProfilePhoto({ form, fallbackName }: { form: ProfileForm; fallbackName: string }) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const { draft } = form;
  const problem = form.problemText("avatar");

  async function choosePhoto(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (!AVATAR_TYPES.includes(file.type)) return form.reportProblem("avatar", { key: "errors.avatarInvalid" });
    if (file.size > AVATAR_MAX_BYTES) return form.reportProblem("avatar", { key: "errors.avatarTooLarge" });
    try {
      form.edit("avatar", await readAsDataUrl(file));
    } catch {
      form.reportProblem("avatar", { key: "errors.fileError" });
    }
  }

  return (
    <Flex gap="6" align="center" direction={{ base: "column", sm: "row" }}>
      <Avatar.Root size="2xl" colorPalette="brand" boxSize="20">
        <Avatar.Fallback name={draft.nickname || fallbackName} fontSize="2xl" />
        {draft.avatar && <Avatar.Image src={draft.avatar} alt={t("profile.photo")} data-testid="avatar-preview" />}
      </Avatar.Root>
      <Stack gap="2" flex="1">
        <Text fontWeight="semibold">{t("profile.photo")}</Text>
        <Text fontSize="sm" color="fg.muted">
          {t("profile.photoHint")}
        </Text>
        <HStack gap="2">
          <Button size="sm" variant="outline" onClick={() => fileInput.current?.click()}>
            <LuImageUp /> {t("profile.uploadPhoto")}
          </Button>
          {draft.avatar && (
            <Button size="sm" variant="ghost" colorPalette="red" onClick={() => form.edit("avatar", "")}>
              <LuTrash2 /> {t("profile.removePhoto")}
            </Button>
          )}
        </HStack>
        {problem && (
          <Text fontSize="sm" color="fg.error" role="alert">
            {problem}
          </Text>
        )}
        <input ref={fileInput} type="file" accept={AVATAR_TYPES.join(",")} hidden onChange={(event) => void choosePhoto(event)} data-testid="avatar-input" />
      </Stack>
    </Flex>
  );
}
