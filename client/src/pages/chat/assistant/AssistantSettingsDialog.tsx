import { Box, Button, Center, CloseButton, Dialog, Portal, Spinner, Stack, Tabs, Text } from "@chakra-ui/react";
import { useMutation, useQuery } from "@apollo/client/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../../components/toaster";
import { useTopKRange } from "../../../components/useTopKRange";
import { describeError, fieldProblemsOf, hasNoProblems, problemText, type FieldProblems, type Problem } from "../../../errors";
import {
  AssistantFormChoicesDocument,
  AssistantSettingsDocument,
  CreateAssistantDocument,
  UpdateAssistantDocument,
  type AssistantFormChoicesQuery,
  type AssistantSettingsFragment,
} from "../../../graphql/gql/graphql";
import { checkDraft, draftOf, inputOf, newDraft, type AssistantDraft, type AssistantTab } from "./assistantDraft";
import { AssistantSettingTab } from "./AssistantSettingTab";
import { firstProblemTab, tabsWithProblems, withEdit, withoutProblemsOf } from "./draftEditor";
import { ModelSettingTab } from "./ModelSettingTab";
import { PromptEngineTab } from "./PromptEngineTab";

const TABS: AssistantTab[] = ["assistant", "prompt", "model"];

interface AssistantFormProps {
  assistant: AssistantSettingsFragment | null;
  choices: AssistantFormChoicesQuery | undefined;
  onClose: () => void;
  onSaved: (id: string) => void;
  busy: boolean;
  setBusy: (busy: boolean) => void;
}

function AssistantForm({ assistant, choices, onClose, onSaved, busy, setBusy }: AssistantFormProps) {
  const { t, i18n } = useTranslation();
  const initial = useRef<AssistantDraft>(assistant ? draftOf(assistant) : newDraft(choices));
  const [draft, setDraft] = useState<AssistantDraft>(initial.current);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [tab, setTab] = useState<AssistantTab>("assistant");
  const topKRange = useTopKRange();
  const [failure, setFailure] = useState<string | null>(null);
  const [createAssistant] = useMutation(CreateAssistantDocument);
  const [updateAssistant] = useMutation(UpdateAssistantDocument);

  function edit<K extends keyof AssistantDraft>(key: K, value: AssistantDraft[K]) {
    setDraft((current) => withEdit(current, key, value, !assistant, choices));
    setProblems((current) => withoutProblemsOf(current, key));
  }
  const reportProblem = (field: string, problem: Problem) => setProblems((current) => ({ ...current, [field]: problem }));
  const error = (field: string) => problemText(i18n, problems[field]);
  const problemTabs = tabsWithProblems(problems);

  function showProblems(found: FieldProblems) {
    setProblems(found);
    const first = firstProblemTab(found);
    if (first) setTab(first);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const found = checkDraft(draft, topKRange);
    if (!hasNoProblems(found)) return showProblems(found);
    setBusy(true);
    try {
      if (assistant) {
        const input = inputOf(draft, initial.current);
        if (Object.keys(input).length > 0) await updateAssistant({ variables: { id: assistant.id, input } });
        notify.success("updated");
        onSaved(assistant.id);
      } else {
        const { data } = await createAssistant({ variables: { input: inputOf(draft) } });
        notify.success("created");
        if (data) onSaved(data.createAssistant.id);
      }
      onClose();
    } catch (failed) {
      const fromServer = fieldProblemsOf(failed);
      if (hasNoProblems(fromServer)) setFailure(describeError(failed, i18n));
      else showProblems(fromServer);
    } finally {
      setBusy(false);
    }
  }

  const editor = { draft, edit, error, reportProblem };
  return (
    // A flex column, so that with the dialog's inside scrolling only the body scrolls and the buttons stay in view.
    <form onSubmit={(event) => void save(event)} noValidate data-testid="assistant-settings-form" style={{ display: "flex", flexDirection: "column", flex: 1, minHeight: 0 }}>
      <Dialog.Body overflowY="auto" pt="0">
        <Tabs.Root value={tab} onValueChange={(details) => setTab(details.value as AssistantTab)} colorPalette="brand" variant="line">
          <Tabs.List position="sticky" top="0" bg="bg.panel" zIndex="1">
            {TABS.map((name) => (
              <Tabs.Trigger key={name} value={name} data-testid={`assistant-tab-${name}`}>
                {t(`chat.settings.tabs.${name}`)}
                {problemTabs.has(name) && <Box boxSize="2" rounded="full" bg="red.solid" aria-label={t("errors.invalidInput")} data-testid="assistant-tab-problem" />}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="assistant" pt="5">
            <AssistantSettingTab {...editor} choices={choices} />
          </Tabs.Content>
          <Tabs.Content value="prompt" pt="5">
            <PromptEngineTab {...editor} problems={problems} choices={choices} />
          </Tabs.Content>
          <Tabs.Content value="model" pt="5">
            <ModelSettingTab {...editor} choices={choices} />
          </Tabs.Content>
        </Tabs.Root>
      </Dialog.Body>
      <Dialog.Footer flexDirection="column" alignItems="stretch" gap="3">
        {failure && (
          <Text role="alert" color="fg.error" fontSize="sm" data-testid="assistant-settings-failure">
            {failure}
          </Text>
        )}
        <Stack direction="row" justify="flex-end" gap="3">
          <Button variant="outline" onClick={onClose} disabled={busy}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" colorPalette="brand" loading={busy} data-testid="assistant-save">
            {assistant ? t("common.save") : t("chat.assistants.createSubmit")}
          </Button>
        </Stack>
      </Dialog.Footer>
    </form>
  );
}

interface AssistantSettingsDialogProps {
  open: boolean;
  /** null: a new assistant. */
  assistantId: string | null;
  onClose: () => void;
  onSaved: (id: string) => void;
}

/** The assistant's settings in three tabs (§2): assistant setting, prompt engine, model setting. */
export function AssistantSettingsDialog({ open, assistantId, onClose, onSaved }: AssistantSettingsDialogProps) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const choices = useQuery(AssistantFormChoicesDocument, { skip: !open, fetchPolicy: "network-only" });
  const existing = useQuery(AssistantSettingsDocument, { variables: { id: assistantId ?? "" }, skip: !open || !assistantId, fetchPolicy: "network-only" });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (open) setGeneration((current) => current + 1);
  }, [open]);

  const ready = !!choices.data && (!assistantId || !!existing.data);
  const loadError = choices.error ?? existing.error;

  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && !busy && onClose()} placement="center" size="lg" scrollBehavior="inside" closeOnInteractOutside={false}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="assistant-settings-dialog" maxHeight="calc(100dvh - 4rem)">
            <Dialog.Header>
              <Dialog.Title>{assistantId ? t("chat.settings.editTitle") : t("chat.settings.createTitle")}</Dialog.Title>
            </Dialog.Header>
            {ready ? (
              <AssistantForm
                key={`${assistantId ?? "new"}-${generation}`}
                assistant={assistantId ? (existing.data?.assistant ?? null) : null}
                choices={choices.data}
                onClose={onClose}
                onSaved={onSaved}
                busy={busy}
                setBusy={setBusy}
              />
            ) : (
              <Dialog.Body>
                <Center py="16">{loadError ? <Text color="fg.error">{describeError(loadError, i18n)}</Text> : <Spinner color="brand.solid" />}</Center>
              </Dialog.Body>
            )}
            <Dialog.CloseTrigger asChild disabled={busy}>
              <CloseButton size="sm" aria-label={t("common.close")} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
