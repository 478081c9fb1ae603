import { CloseButton, Dialog, HStack, Portal, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ModelEntryRowFragment, ModelProviderInfoFragment } from "../../../graphql/gql/graphql";
import { ModelEntryForm } from "./ModelEntryForm";
import { ProviderMonogram } from "./ProviderMonogram";

interface ModelEntryDialogProps {
  open: boolean;
  /** The provider to add a model from, or whose entry is edited; kept while the dialog closes. */
  provider: ModelProviderInfoFragment | null;
  entry?: ModelEntryRowFragment | null;
  onClose: () => void;
}

/** Adds a model of a provider, or edits an added one, with a form drawn from the provider's description. */
export function ModelEntryDialog({ open, provider, entry = null, onClose }: ModelEntryDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Dialog.Root
      open={open && provider !== null}
      // Each opening starts from a fresh form.
      lazyMount
      unmountOnExit
      onOpenChange={(event) => !event.open && !busy && onClose()}
      placement="center"
      size="lg"
      scrollBehavior="inside"
      closeOnInteractOutside={false}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="model-entry-dialog">
            {provider && (
              <>
                <Dialog.Header>
                  <HStack gap="3" minWidth="0">
                    <ProviderMonogram name={provider.name} size="9" />
                    <Stack gap="0" minWidth="0">
                      <Dialog.Title>{entry ? t("models.dialog.editTitle", { model: entry.modelName }) : t("models.dialog.addTitle")}</Dialog.Title>
                      <Text fontSize="sm" color="fg.muted" truncate>
                        {provider.name}
                      </Text>
                    </Stack>
                  </HStack>
                </Dialog.Header>
                <ModelEntryForm provider={provider} entry={entry} onDone={onClose} onBusyChange={setBusy} />
                <Dialog.CloseTrigger asChild disabled={busy}>
                  <CloseButton size="sm" aria-label={t("common.close")} />
                </Dialog.CloseTrigger>
              </>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
