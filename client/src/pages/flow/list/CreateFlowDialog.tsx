import { Badge, Button, chakra, CloseButton, Dialog, HStack, Input, Portal, SimpleGrid, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useMutation, useQuery } from "@apollo/client/react";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuBookOpen, LuDatabase, LuGlobe, LuKeyRound, LuPlus } from "react-icons/lu";
import { useNavigate } from "react-router-dom";
import { FormField } from "../../../components/FormField";
import { LoadFailed } from "../../../components/LoadFailed";
import { notify } from "../../../components/toaster";
import { describeError, problemText, type Problem } from "../../../errors";
import { CreateFlowFromListDocument, FlowTemplateGalleryDocument, type FlowTemplateGalleryQuery } from "../../../graphql/gql/graphql";
import { FlowThumbnail } from "../../../components/flow-thumbnail/FlowThumbnail";
import { titleProblemsOf } from "./flowTitle";

type Template = FlowTemplateGalleryQuery["flowTemplates"][number];

/** What a template needs beyond Cairn's built-in models, with the icon of its badge. */
const NEED_ICONS = { knowledgeBase: LuBookOpen, apiKey: LuKeyRound, internet: LuGlobe, database: LuDatabase } as const;

/** The drawing of a blank flow (the server makes Begin and an Answer), for the blank choice's picture. */
const BLANK_GRAPH = {
  nodes: [
    { id: "begin", position: { x: 0, y: 0 }, width: 180, height: 56 },
    { id: "Answer:Reply", position: { x: 300, y: 0 }, width: 180, height: 56 },
  ],
  edges: [{ source: "begin", target: "Answer:Reply" }],
};

const BLANK = "blank";

interface ChoiceProps {
  selected: boolean;
  onSelect: () => void;
  title: string;
  description: string;
  graph: unknown;
  needs?: readonly string[];
  testId: string;
}

function Choice({ selected, onSelect, title, description, graph, needs = [], testId }: ChoiceProps) {
  const { t } = useTranslation();
  return (
    <chakra.button
      type="button"
      role="radio"
      aria-checked={selected}
      onClick={onSelect}
      textAlign="start"
      bg="bg.panel"
      borderWidth={selected ? "2px" : "1px"}
      borderColor={selected ? "brand.solid" : "border"}
      m={selected ? "0" : "1px"}
      rounded="l3"
      p="3"
      display="flex"
      flexDirection="column"
      gap="2"
      cursor="pointer"
      _hover={{ borderColor: selected ? "brand.solid" : "brand.emphasized" }}
      focusRing="outside"
      data-testid={testId}
    >
      <FlowThumbnail graph={graph} height="20" testId={`${testId}-preview`} />
      <Text fontWeight="semibold" fontSize="sm" lineClamp={1}>
        {title}
      </Text>
      <Text fontSize="xs" color="fg.muted" lineClamp={3} title={description}>
        {description}
      </Text>
      {needs.length > 0 && (
        <HStack gap="1" wrap="wrap" mt="auto">
          {needs.map((need) => {
            const NeedIcon = NEED_ICONS[need as keyof typeof NEED_ICONS];
            return (
              <Badge key={need} size="sm" variant="surface" colorPalette="gray" data-testid="flow-template-need">
                {NeedIcon && <NeedIcon />} {t(`flow.list.needs.${need}`)}
              </Badge>
            );
          })}
        </HStack>
      )}
    </chakra.button>
  );
}

interface CreateFlowDialogProps {
  open: boolean;
  onClose: () => void;
}

/** A new flow: blank or from a template of the gallery, with its name; then the editor opens on it. */
export function CreateFlowDialog({ open, onClose }: CreateFlowDialogProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const templates = useQuery(FlowTemplateGalleryDocument, { skip: !open });
  const [createFlow] = useMutation(CreateFlowFromListDocument);
  const [choice, setChoice] = useState(BLANK);
  const [title, setTitle] = useState("");
  /** Once the user types a name, choosing another template no longer replaces it. */
  const [named, setNamed] = useState(false);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setChoice(BLANK);
    setTitle("");
    setNamed(false);
    setProblem(undefined);
    setFailure(null);
  }, [open]);

  function choose(id: string, template?: Template) {
    setChoice(id);
    if (!named) {
      setTitle(template ? t(template.title) : "");
      setProblem(undefined);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!title.trim()) {
      setProblem({ key: "flow.errors.titleRequired" });
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const { data } = await createFlow({ variables: { input: { title: title.trim(), templateId: choice === BLANK ? null : choice } }, refetchQueries: "active" });
      notify.success("created");
      onClose();
      if (data) navigate(`/flow/${data.createFlow.id}`);
    } catch (error) {
      const titleProblem = titleProblemsOf(error).title;
      if (titleProblem) setProblem(titleProblem);
      else setFailure(describeError(error, i18n));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && !busy && onClose()} placement="center" scrollBehavior="inside" size="xl">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content asChild maxWidth="min(64rem, calc(100vw - 2rem))" data-testid="flow-create-dialog">
            <form onSubmit={(event: FormEvent) => void submit(event)} noValidate>
              <Dialog.Header>
                <Dialog.Title>{t("flow.list.createTitle")}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="5">
                  <FormField label={t("flow.list.name")} required error={problemText(i18n, problem)}>
                    <Input
                      name="title"
                      autoFocus
                      placeholder={t("flow.list.namePlaceholder")}
                      value={title}
                      onChange={(event) => {
                        setTitle(event.target.value);
                        setNamed(true);
                        setProblem(undefined);
                      }}
                      data-testid="flow-create-title"
                    />
                  </FormField>
                  <Stack gap="2">
                    <Text fontWeight="medium" fontSize="sm">
                      {t("flow.list.startFrom")}
                    </Text>
                    <SimpleGrid role="radiogroup" aria-label={t("flow.list.startFrom")} columns={{ base: 1, sm: 2, md: 3 }} gap="3" data-testid="flow-template-gallery">
                      <Choice selected={choice === BLANK} onSelect={() => choose(BLANK)} title={t("flow.list.blankTitle")} description={t("flow.list.blankDescription")} graph={BLANK_GRAPH} testId="flow-template-blank" />
                      {templates.loading && !templates.data
                        ? [0, 1, 2, 3, 4].map((n) => <Skeleton key={n} height="48" rounded="l3" />)
                        : templates.data?.flowTemplates.map((template) => (
                            <Choice
                              key={template.id}
                              selected={choice === template.id}
                              onSelect={() => choose(template.id, template)}
                              title={t(template.title)}
                              description={t(template.description)}
                              graph={template.dsl.graph}
                              needs={template.needs}
                              testId={`flow-template-${template.id}`}
                            />
                          ))}
                    </SimpleGrid>
                    {templates.error && !templates.data && <LoadFailed error={templates.error} onRetry={() => void templates.refetch()} py="6" />}
                  </Stack>
                  {failure && (
                    <Text role="alert" color="fg.error" fontSize="sm">
                      {failure}
                    </Text>
                  )}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose} disabled={busy}>
                  {t("common.cancel")}
                </Button>
                <Button type="submit" colorPalette="brand" loading={busy} data-testid="flow-create-submit">
                  <LuPlus /> {t("flow.list.createSubmit")}
                </Button>
              </Dialog.Footer>
              <Dialog.CloseTrigger asChild disabled={busy}>
                <CloseButton size="sm" aria-label={t("common.close")} />
              </Dialog.CloseTrigger>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
