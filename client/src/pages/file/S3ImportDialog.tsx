import { Alert, Badge, Button, Checkbox, CloseButton, Dialog, HStack, Input, Portal, Progress, SimpleGrid, Stack, Table, Text } from "@chakra-ui/react";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuArrowLeft, LuCloudDownload } from "react-icons/lu";
import { FormField } from "../../components/FormField";
import { PasswordInput } from "../../components/PasswordInput";
import { formatBytes } from "../../documents/documentTransfer";
import { problemText } from "../../errors";
import { useFormatters } from "../../format";
import type { S3ConnectionValues } from "./s3Connection";
import { importEnded, type S3Import } from "./useS3Import";

interface S3ImportDialogProps {
  open: boolean;
  folderName: string;
  s3: S3Import;
  onClose: () => void;
}

/** Import from an S3-compatible bucket: connect, list and choose the objects, copy them into the open folder. */
export function S3ImportDialog({ open, folderName, s3, onClose }: S3ImportDialogProps) {
  const { t } = useTranslation();
  const copying = s3.step === "copy" && !(s3.progress && importEnded(s3.progress));
  const busy = s3.listing || s3.starting;
  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && !busy && onClose()} placement="center" size="lg">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="file-s3-dialog" data-step={s3.step}>
            <Dialog.Header>
              <Dialog.Title>{t("file.s3.title")}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                {s3.step === "connect" && <ConnectionForm s3={s3} />}
                {s3.step === "choose" && <ObjectChoice s3={s3} />}
                {s3.step === "copy" && <CopyProgress s3={s3} />}
                {s3.failure && (
                  <Alert.Root status="error" variant="subtle" data-testid="file-s3-failure">
                    <Alert.Indicator />
                    <Alert.Description>{s3.failure}</Alert.Description>
                  </Alert.Root>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              {s3.step === "choose" && (
                <Button variant="ghost" me="auto" onClick={s3.back} disabled={busy} data-testid="file-s3-back">
                  <LuArrowLeft /> {t("file.s3.back")}
                </Button>
              )}
              <Button variant="outline" onClick={onClose} disabled={busy} data-testid="file-s3-close">
                {s3.step === "copy" ? t("common.close") : t("common.cancel")}
              </Button>
              {s3.step === "connect" && (
                <Button colorPalette="brand" type="submit" form="file-s3-connection" loading={s3.listing} data-testid="file-s3-list">
                  {t("file.s3.list")}
                </Button>
              )}
              {s3.step === "choose" && (
                <Button colorPalette="brand" loading={s3.starting} disabled={s3.chosen.size === 0} onClick={() => void s3.copy()} data-testid="file-s3-copy">
                  <LuCloudDownload /> {t("file.s3.copy", { count: s3.chosen.size, folder: folderName })}
                </Button>
              )}
              {s3.step === "copy" && copying && <Text fontSize="sm" color="fg.muted">{t("file.s3.keepsGoing")}</Text>}
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild disabled={busy}>
              <CloseButton size="sm" aria-label={t("common.close")} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

const FIELDS: { name: keyof S3ConnectionValues; required?: boolean; placeholder?: string; secret?: boolean }[] = [
  { name: "endpoint", required: true, placeholder: "https://" },
  { name: "region", placeholder: "us-east-1" },
  { name: "bucket", required: true },
  { name: "prefix" },
  { name: "accessKey", required: true },
  { name: "secretKey", required: true, secret: true },
];

function ConnectionForm({ s3 }: { s3: S3Import }) {
  const { t, i18n } = useTranslation();
  return (
    <form
      id="file-s3-connection"
      noValidate
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void s3.list();
      }}
    >
      <Stack gap="4">
        <Text fontSize="sm" color="fg.muted">
          {t("file.s3.explain")}
        </Text>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          {FIELDS.map((field) => {
            const input = {
              name: field.name,
              value: s3.values[field.name],
              placeholder: field.placeholder,
              autoComplete: "off",
              onChange: (event: { target: { value: string } }) => s3.edit(field.name, event.target.value),
              "data-testid": `file-s3-${field.name}`,
            };
            return (
              <FormField key={field.name} label={t(`file.s3.field.${field.name}`)} required={field.required} error={problemText(i18n, s3.problems[field.name])} helper={field.name === "prefix" ? t("file.s3.prefixHint") : undefined}>
                {field.secret ? <PasswordInput {...input} /> : <Input {...input} />}
              </FormField>
            );
          })}
        </SimpleGrid>
      </Stack>
    </form>
  );
}

function ObjectChoice({ s3 }: { s3: S3Import }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const all = s3.choosable.length > 0 && s3.chosen.size === s3.choosable.length;
  if (s3.objects.length === 0) {
    return (
      <Text color="fg.muted" py="6" textAlign="center" data-testid="file-s3-no-objects">
        {t("file.s3.noObjects")}
      </Text>
    );
  }
  return (
    <Stack gap="2">
      <Text fontSize="sm" color="fg.muted">
        {t("file.s3.chosen", { count: s3.chosen.size, listed: s3.objects.length })}
      </Text>
      <Table.ScrollArea borderWidth="1px" rounded="l2" maxHeight="72">
        <Table.Root size="sm" stickyHeader data-testid="file-s3-objects">
          <Table.Header>
            <Table.Row bg="bg.subtle">
              <Table.ColumnHeader width="10">
                <Checkbox.Root size="sm" colorPalette="brand" checked={all ? true : s3.chosen.size > 0 ? "indeterminate" : false} onCheckedChange={(details) => s3.chooseAll(details.checked === true)} aria-label={t("file.table.selectAll")} data-testid="file-s3-select-all">
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                </Checkbox.Root>
              </Table.ColumnHeader>
              <Table.ColumnHeader>{t("file.s3.key")}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{t("file.table.size")}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {s3.objects.map((object) => (
              <Table.Row key={object.key} data-testid="file-s3-object" data-key={object.key}>
                <Table.Cell>
                  <Checkbox.Root size="sm" colorPalette="brand" disabled={object.tooLarge} checked={s3.chosen.has(object.key)} onCheckedChange={(details) => s3.toggle(object.key, details.checked === true)} aria-label={t("file.table.select", { name: object.key })} data-testid="file-s3-object-select">
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                  </Checkbox.Root>
                </Table.Cell>
                <Table.Cell fontFamily="mono" fontSize="xs" maxWidth="96">
                  <HStack gap="2" minWidth="0">
                    <Text truncate title={object.key}>
                      {object.key}
                    </Text>
                    {object.tooLarge && (
                      <Badge size="xs" colorPalette="red" variant="subtle" flexShrink={0} fontFamily="body" data-testid="file-s3-too-large">
                        {t("file.s3.tooLarge", { size: "10 MB" })}
                      </Badge>
                    )}
                  </HStack>
                </Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap" color="fg.muted">
                  {formatBytes(object.size, format.number)}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      {s3.hasMore && (
        <Button size="sm" variant="outline" alignSelf="center" loading={s3.listing} onClick={() => void s3.more()} data-testid="file-s3-more">
          {t("file.s3.more")}
        </Button>
      )}
    </Stack>
  );
}

function CopyProgress({ s3 }: { s3: S3Import }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const progress = s3.progress;
  const ended = progress ? importEnded(progress) : false;
  const total = progress?.total ?? s3.chosen.size;
  const settled = (progress?.done ?? 0) + (progress?.failed ?? 0);
  const percent = total > 0 ? Math.round((settled / total) * 100) : 0;
  return (
    <Stack gap="3" data-testid="file-s3-progress" data-status={progress?.status ?? "running"}>
      <HStack justify="space-between" fontSize="sm">
        <Text fontWeight="medium">{!ended ? t("file.s3.copying") : progress?.status === "failed" ? t("file.s3.stopped") : t("file.s3.finished")}</Text>
        <Text color="fg.muted" data-testid="file-s3-counts">
          {t("file.s3.counts", { done: format.number(progress?.done ?? 0), failed: format.number(progress?.failed ?? 0), total: format.number(total) })}
        </Text>
      </HStack>
      <Progress.Root value={percent} size="sm" colorPalette={progress?.failed ? "orange" : "brand"} striped={!ended} animated={!ended}>
        <Progress.Track rounded="full">
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      {(progress?.errors.length ?? 0) > 0 && (
        <Stack gap="1.5" maxHeight="56" overflowY="auto" borderWidth="1px" borderColor="border.error" rounded="l2" p="3" data-testid="file-s3-errors">
          <Text fontSize="sm" fontWeight="medium" color="fg.error">
            {t("file.s3.notCopied", { count: progress?.errors.length ?? 0 })}
          </Text>
          {progress?.errors.map((error) => (
            <Stack key={error.key} gap="0" fontSize="sm" data-testid="file-s3-object-error">
              <Text fontFamily="mono" fontSize="xs" truncate title={error.key}>
                {error.key}
              </Text>
              <Text fontSize="xs" color="fg.error">
                {/* The server words it in the reader's language already; the key stands in when it sent no text. */}
                {error.message || t(error.messageKey)}
              </Text>
            </Stack>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
