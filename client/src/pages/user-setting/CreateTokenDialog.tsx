import { Button, CloseButton, Dialog, Input, NativeSelect, Portal, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormField } from "../../components/FormField";

type Expiry = "never" | "30" | "90" | "365" | "date";
const DAY_MS = 86_400_000;

/** "YYYY-MM-DD" of a moment, in the browser's time zone, as a date input reads and writes it. */
function dateInputValue(moment: Date): string {
  const local = new Date(moment.getTime() - moment.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 10);
}

/** When a key chosen this way stops working: a number of days from now, or the end of the chosen day. */
function expiresAtOf(expiry: Expiry, date: string): Date | null {
  if (expiry === "never") return null;
  if (expiry === "date") return date ? new Date(`${date}T23:59:59`) : null;
  return new Date(Date.now() + Number(expiry) * DAY_MS);
}

/** Settings → API: a new key's expiry, asked before the key is created. */
export function CreateTokenDialog({
  open,
  creating,
  onClose,
  onCreate,
}: {
  open: boolean;
  creating: boolean;
  onClose: () => void;
  /** Resolves true once the key exists, which closes the dialog. */
  onCreate: (expiresAt: Date | null) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [expiry, setExpiry] = useState<Expiry>("never");
  const [date, setDate] = useState("");
  const tomorrow = dateInputValue(new Date(Date.now() + DAY_MS));
  const incomplete = expiry === "date" && date < tomorrow;

  // Each new key starts from "never", whatever the previous one was given.
  function close() {
    setExpiry("never");
    setDate("");
    onClose();
  }

  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && close()} placement="center" size="sm">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="create-token-dialog">
            <Dialog.Header>
              <Dialog.Title>{t("api.newKeyTitle")}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <FormField label={t("api.expiry")}>
                  <NativeSelect.Root>
                    <NativeSelect.Field name="expiry" value={expiry} onChange={(event) => setExpiry(event.target.value as Expiry)}>
                      <option value="never">{t("api.expiryNever")}</option>
                      {(["30", "90", "365"] as const).map((days) => (
                        <option key={days} value={days}>
                          {t("api.expiryDays", { count: Number(days) })}
                        </option>
                      ))}
                      <option value="date">{t("api.expiryDate")}</option>
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </FormField>
                {expiry === "date" && (
                  <FormField label={t("api.expiryDateLabel")} required>
                    <Input name="expiryDate" type="date" min={tomorrow} value={date} onChange={(event) => setDate(event.target.value)} />
                  </FormField>
                )}
                <Text fontSize="sm" color="fg.muted">
                  {t("api.expiryHint")}
                </Text>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={close}>
                {t("common.cancel")}
              </Button>
              <Button colorPalette="brand" loading={creating} disabled={incomplete} onClick={() => void onCreate(expiresAtOf(expiry, date)).then((created) => created && close())} data-testid="confirm-create-api-token">
                {t("api.create")}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t("common.close")} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
