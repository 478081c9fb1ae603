import { Alert, Button, Center, HStack, Link, NativeSelect, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useMutation, useQuery } from "@apollo/client/react";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuRefreshCw } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { FormField } from "../../components/FormField";
import { notify } from "../../components/toaster";
import { describeError, fieldProblemsOf, hasNoProblems, type FieldProblems } from "../../errors";
import {
  SetDefaultModelsDocument,
  SystemModelsDocument,
  type AvailableModelOptionFragment,
  type DefaultModelChoicesFragment,
  type DefaultModelsInput,
} from "../../graphql/gql/graphql";
import { SettingsCard } from "./SettingsCard";
import { MODEL_TYPES, describeModelError, modelProblemText, typeLabel } from "./models/modelText";

type DefaultType = (typeof MODEL_TYPES)[number];
type Choices = Record<DefaultType, string>;

function choicesOf(defaults: DefaultModelChoicesFragment): Choices {
  return Object.fromEntries(MODEL_TYPES.map((type) => [type, defaults[type]])) as Choices;
}

interface DefaultModelFieldProps {
  type: DefaultType;
  value: string;
  models: AvailableModelOptionFragment[];
  error?: string;
  onChange: (value: string) => void;
}

/** One default: the built-in models first, then each provider's, grouped as on the model-providers page. */
function DefaultModelField({ type, value, models, error, onChange }: DefaultModelFieldProps) {
  const { t } = useTranslation();
  const builtins = models.filter((model) => model.builtin);
  const providers = [...new Set(models.filter((model) => !model.builtin).map((model) => model.provider))];
  const known = value === "" || models.some((model) => model.id === value);
  const chosen = models.find((model) => model.id === value);
  // A built-in model is described for what it is (an extractive "chat" model is no LLM); others by what the default is for.
  const helper =
    chosen?.builtin && builtins[0]
      ? chosen.modelName === builtins[0].modelName
        ? t(`models.builtin.about.${type}`, { defaultValue: t("models.builtin.about.other") })
        : t("models.builtin.alias", { model: builtins[0].modelName })
      : t(`system.help.${type}`);

  return (
    <FormField label={typeLabel(t, type)} error={error} helper={helper} disabled={models.length === 0}>
      <NativeSelect.Root>
        <NativeSelect.Field
          name={type}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          data-testid={`default-${type}`}
        >
          {value === "" && <option value="">{models.length === 0 ? t("system.noneAvailable") : t("system.notSet")}</option>}
          {!known && <option value={value}>{t("system.unavailable", { model: value })}</option>}
          {builtins.length > 0 && (
            <optgroup label={t("system.builtinGroup")}>
              {builtins.map((model) => (
                <option key={model.id} value={model.id}>
                  {t("system.builtinOption", { model: model.modelName, kind: t(`models.builtin.short.${type}`, { defaultValue: t("models.builtin.short.other") }) })}
                </option>
              ))}
            </optgroup>
          )}
          {providers.map((provider) => (
            <optgroup key={provider} label={provider}>
              {models
                .filter((model) => !model.builtin && model.provider === provider)
                .map((model) => (
                  <option key={model.id} value={model.id}>
                    {model.vision ? t("system.visionOption", { model: model.modelName }) : model.modelName}
                  </option>
                ))}
            </optgroup>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </FormField>
  );
}

function DefaultModelsForm({ defaults, models }: { defaults: DefaultModelChoicesFragment; models: AvailableModelOptionFragment[] }) {
  const { t, i18n } = useTranslation();
  const saved = useMemo(() => choicesOf(defaults), [defaults]);
  const [draft, setDraft] = useState<Choices>(saved);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [setDefaults, { loading: saving }] = useMutation(SetDefaultModelsDocument);
  const savedBefore = useRef(saved);
  // A refetch (another tab, a deleted model) moves the defaults that are not being changed here.
  useEffect(() => {
    const before = savedBefore.current;
    savedBefore.current = saved;
    setDraft((current) => Object.fromEntries(MODEL_TYPES.map((type) => [type, current[type] === before[type] ? saved[type] : current[type]])) as Choices);
  }, [saved]);
  const changed = MODEL_TYPES.filter((type) => draft[type] !== saved[type]);

  async function save(event: FormEvent) {
    event.preventDefault();
    const input: DefaultModelsInput = Object.fromEntries(changed.map((type) => [type, draft[type]]));
    try {
      await setDefaults({
        variables: { input },
        update(cache, { data }) {
          if (!data) return;
          cache.updateQuery({ query: SystemModelsDocument }, (current) => (current ? { ...current, defaultModels: data.setDefaultModels } : current));
        },
      });
      setProblems({});
      notify.success("modified");
    } catch (failure) {
      const fieldProblems = fieldProblemsOf(failure);
      if (hasNoProblems(fieldProblems)) notify.error(describeModelError(failure, i18n));
      else setProblems(fieldProblems);
    }
  }

  return (
    <form onSubmit={(event) => void save(event)} noValidate data-testid="system-models-form">
      <SettingsCard>
        <Stack gap="6">
          <Alert.Root status="info" variant="subtle" colorPalette="brand">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t("system.introTitle")}</Alert.Title>
              <Alert.Description>
                {t("system.intro")}{" "}
                <Link asChild color="brand.fg" fontWeight="semibold" textDecoration="underline" textUnderlineOffset="3px">
                  <RouterLink to="/user-setting/model">{t("system.addModels")}</RouterLink>
                </Link>
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
          <Stack gap="5" maxWidth="xl">
            {MODEL_TYPES.map((type) => (
              <DefaultModelField
                key={type}
                type={type}
                value={draft[type]}
                models={models.filter((model) => model.modelType === type)}
                error={modelProblemText(i18n, problems[type])}
                onChange={(value) => {
                  setDraft((current) => ({ ...current, [type]: value }));
                  setProblems((current) => ({ ...current, [type]: undefined }));
                }}
              />
            ))}
          </Stack>
        </Stack>
      </SettingsCard>
      <HStack justify="flex-end" gap="3" mt="5">
        <Button variant="ghost" disabled={changed.length === 0 || saving} onClick={() => (setDraft(saved), setProblems({}))}>
          {t("common.reset")}
        </Button>
        <Button type="submit" colorPalette="brand" loading={saving} disabled={changed.length === 0} data-testid="save-defaults">
          {t("common.save")}
        </Button>
      </HStack>
    </form>
  );
}

export default function SystemModelsPage() {
  const { t, i18n } = useTranslation();
  const { data, loading, error, refetch } = useQuery(SystemModelsDocument);
  if (loading && !data) {
    return (
      <SettingsCard>
        <Stack gap="5" maxWidth="xl">
          {MODEL_TYPES.map((type) => (
            <Skeleton key={type} height="16" />
          ))}
        </Stack>
      </SettingsCard>
    );
  }
  if (!data) {
    return (
      <Center py="10" flexDirection="column" gap="3" role="alert" borderWidth="1px" rounded="l3" bg="bg.panel">
        <Text color="fg.muted">{describeError(error, i18n)}</Text>
        <Button size="sm" variant="outline" onClick={() => void refetch()}>
          <LuRefreshCw /> {t("common.retry")}
        </Button>
      </Center>
    );
  }
  return <DefaultModelsForm defaults={data.defaultModels} models={data.availableModels} />;
}
