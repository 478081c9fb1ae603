import { Alert, Button, Dialog, Flex, HStack, Separator, Stack, Text } from "@chakra-ui/react";
import { useMutation } from "@apollo/client/react";
import { useMemo, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuPlugZap } from "react-icons/lu";
import { ParamForm } from "../../../components/ParamForm";
import { notify } from "../../../components/toaster";
import { fieldProblemsOf, hasNoProblems, messageKeyOf, messageParamsOf, type FieldProblems } from "../../../errors";
import { AddModelEntryDocument, ModelSettingsDocument, TestModelConnectionDocument, UpdateModelEntryDocument, type ModelEntryRowFragment, type ModelProviderInfoFragment } from "../../../graphql/gql/graphql";
import { ConnectionResult, type ConnectionTest } from "../../../components/ConnectionResult";
import { checkDraft, FORM_FIELDS, initialDraft, inputOf, sameAddress, type Draft } from "./modelEntryDraft";
import { ModelIdentityFields, ModelLimitFields } from "./ModelEntryFields";
import { canHaveVision, describeModelError, modelProblemText } from "./modelText";

/**
 * Adds a model of a provider or edits an added one: model type and name, the provider's credentials
 * (drawn by ParamForm from the provider's ParamSpecs), limits, and a connection test.
 */
interface ModelEntryFormProps {
  provider: ModelProviderInfoFragment;
  /** The entry being edited; null to add a new model. */
  entry: ModelEntryRowFragment | null;
  onDone: () => void;
  onBusyChange: (busy: boolean) => void;
}

export function ModelEntryForm({ provider, entry, onDone, onBusyChange }: ModelEntryFormProps) {
  const { t, i18n } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => initialDraft(provider, entry));
  const [problems, setProblems] = useState<FieldProblems>({});
  const [testResult, setTestResult] = useState<ConnectionTest | null>(null);
  const [testConnection, { loading: testing }] = useMutation(TestModelConnectionDocument);
  const [addEntry, { loading: adding }] = useMutation(AddModelEntryDocument);
  const [updateEntry, { loading: updating }] = useMutation(UpdateModelEntryDocument);
  const saving = adding || updating;
  const initial = useMemo(() => initialDraft(provider, entry), [provider, entry]);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  /** The fields the user changed by hand; an edited entry's are its own. */
  const userSet = useRef(new Set<string>(entry ? ["maxTokens", "vision"] : []));

  const storedSecrets = useMemo(
    () => Object.fromEntries((entry?.credentials ?? []).filter((c) => c.secret && c.value).map((c) => [c.name, c.value])),
    [entry],
  );
  /** An edited entry whose base URL (or another address field) changed: its saved secrets must be typed again. */
  const addressChanged =
    entry !== null && provider.credentialFields.some((field) => field.type === "url" && !sameAddress(draft.credentials[field.key] ?? "", initial.credentials[field.key] ?? ""));
  const suggestions = useMemo(
    () => provider.catalogue.filter((model) => model.type === draft.modelType).map((model) => model.name),
    [provider, draft.modelType],
  );
  const generalProblems = Object.entries(problems).filter(
    ([field, problem]) => problem && !FORM_FIELDS.has(field) && !provider.credentialFields.some((f) => f.key === field),
  );

  function edit(change: Partial<Draft>, fields: string[]) {
    setDraft((current) => ({ ...current, ...change }));
    setTestResult(null);
    if (fields.some((field) => problems[field])) setProblems((current) => ({ ...current, ...Object.fromEntries(fields.map((f) => [f, undefined])) }));
  }

  function editName(modelName: string) {
    // A model of the catalogue brings its known limit and vision support, unless the user set them.
    const known = provider.catalogue.find((model) => model.name === modelName && model.type === draft.modelType);
    const change: Partial<Draft> = { modelName };
    if (!userSet.current.has("maxTokens")) change.maxTokens = known?.maxTokens ? String(known.maxTokens) : "";
    if (!userSet.current.has("vision") && canHaveVision(draft.modelType)) change.vision = known?.vision ?? false;
    edit(change, ["modelName", "maxTokens"]);
  }

  /** Against a stored secret, the help says that an empty field keeps it (or, at a new address, that it must be typed again). */
  const secretHelpers = Object.fromEntries(
    Object.keys(storedSecrets).map((name) => [name, t(addressChanged ? "models.dialog.secretForNewAddress" : "models.dialog.keepSecret")]),
  );

  function checked(): boolean {
    const found = checkDraft(provider, draft, storedSecrets, addressChanged);
    setProblems(found);
    return hasNoProblems(found);
  }

  /** The server's field problems go under their fields, as does "already added" under the name; anything else becomes a toast. */
  function report(failure: unknown) {
    const fieldProblems = fieldProblemsOf(failure);
    const key = messageKeyOf(failure);
    if (key === "errors.model.entryExists") setProblems({ modelName: { key, params: messageParamsOf(failure) } });
    else if (hasNoProblems(fieldProblems)) notify.error(describeModelError(failure, i18n));
    else setProblems(fieldProblems);
  }

  async function runTest() {
    if (!checked()) return;
    setTestResult(null);
    onBusyChange(true);
    try {
      // While editing, the server fills a secret left empty with the stored one, so the edited settings are what is tested.
      const variables = entry ? { entryId: entry.id, input: dirty ? inputOf(provider, draft) : undefined } : { input: inputOf(provider, draft) };
      const { data } = await testConnection({ variables });
      if (data) setTestResult(data.testModelConnection);
    } catch (failure) {
      report(failure);
    } finally {
      onBusyChange(false);
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!checked()) return;
    const input = inputOf(provider, draft);
    onBusyChange(true);
    try {
      if (entry) {
        await updateEntry({ variables: { id: entry.id, input: { credentials: input.credentials, maxTokens: input.maxTokens, vision: input.vision } } });
        notify.success("modified");
      } else {
        await addEntry({
          variables: { input },
          update(cache, { data }) {
            if (!data) return;
            cache.updateQuery({ query: ModelSettingsDocument }, (current) =>
              current ? { ...current, modelEntries: [...current.modelEntries, data.addModelEntry] } : current,
            );
          },
        });
        notify.success("created");
      }
      onDone();
    } catch (failure) {
      report(failure);
    } finally {
      onBusyChange(false);
    }
  }

  const problem = (field: string) => modelProblemText(i18n, problems[field]);

  return (
    // `display: contents` keeps the body and footer in the dialog's own layout, so that only the body scrolls.
    <form onSubmit={(event) => void save(event)} noValidate data-testid="model-entry-form" style={{ display: "contents" }}>
      <Dialog.Body>
        <Stack gap="5">
          {generalProblems.length > 0 && (
            <Alert.Root status="error" variant="subtle">
              <Alert.Indicator />
              <Alert.Content>
                {generalProblems.map(([field, p]) => (
                  <Alert.Description key={field}>{modelProblemText(i18n, p)}</Alert.Description>
                ))}
              </Alert.Content>
            </Alert.Root>
          )}

          <ModelIdentityFields
            provider={provider}
            entry={entry}
            draft={draft}
            suggestions={suggestions}
            problem={problem}
            onTypeChange={(modelType) => edit({ modelType, vision: canHaveVision(modelType) && draft.vision }, ["modelType"])}
            onNameChange={editName}
          />

          {provider.credentialFields.length > 0 && (
            <Stack gap="4">
              <HStack gap="3">
                <Text fontSize="xs" fontWeight="semibold" textTransform="uppercase" letterSpacing="0.06em" color="fg.subtle" flexShrink="0">
                  {t("models.dialog.credentials")}
                </Text>
                <Separator flex="1" />
              </HStack>
              <ParamForm
                specs={provider.credentialFields}
                draft={draft.credentials}
                onChange={(credentials, touched) => edit({ credentials: credentials as Record<string, string> }, touched)}
                problems={problems}
                describeProblem={(p) => modelProblemText(i18n, p)}
                helpers={secretHelpers}
                placeholders={addressChanged ? {} : storedSecrets}
                namePrefix="credential-"
              />
            </Stack>
          )}

          <ModelLimitFields
            draft={draft}
            problem={problem}
            onMaxTokensChange={(maxTokens) => {
              userSet.current.add("maxTokens");
              edit({ maxTokens }, ["maxTokens"]);
            }}
            onVisionChange={(vision) => {
              userSet.current.add("vision");
              edit({ vision }, ["vision"]);
            }}
          />

          {testResult && <ConnectionResult result={testResult} />}
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Flex width="full" gap="3" justify="space-between" wrap="wrap">
          <Button variant="outline" loading={testing} disabled={saving} onClick={() => void runTest()} data-testid="test-connection">
            <LuPlugZap /> {t("models.test.button")}
          </Button>
          <HStack gap="3">
            <Dialog.ActionTrigger asChild>
              <Button variant="ghost" disabled={saving}>
                {t("common.cancel")}
              </Button>
            </Dialog.ActionTrigger>
            <Button type="submit" colorPalette="brand" loading={saving} disabled={testing || (entry !== null && !dirty)} data-testid="save-model">
              {t("common.save")}
            </Button>
          </HStack>
        </Flex>
      </Dialog.Footer>
    </form>
  );
}
