import { Alert, Badge, Box, Button, Flex, Heading, HStack, Icon, Progress, SimpleGrid, Spinner, Stack, Text } from "@chakra-ui/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { IconType } from "react-icons";
import { LuBot, LuCircle, LuCircleCheck, LuCircleX, LuFileText, LuLibrary, LuPlay, LuWorkflow } from "react-icons/lu";
import { Link } from "react-router-dom";
import { CopyButton } from "../../components/CopyButton";
import { LoadFailed } from "../../components/LoadFailed";
import { PublicShell } from "../../components/PublicShell";
import { RUN } from "../../documents/runStatus";
import { describeError } from "../../errors";
import { useAuthToken } from "../../session/authStore";
import { loginPathFor } from "../../session/returnTo";
import type { StepState } from "./demoSteps";
import { useDemo } from "./useDemo";

const PARTS: { key: string; icon: IconType }[] = [
  { key: "knowledgeBase", icon: LuLibrary },
  { key: "parsing", icon: LuFileText },
  { key: "assistant", icon: LuBot },
  { key: "flow", icon: LuWorkflow },
];

/** `/demo`, outside the sign-in guard: what the demo makes, then (signed in) one button and its steps as they happen. */
export default function DemoPage() {
  const { t } = useTranslation();
  const signedIn = useAuthToken() !== null;
  return (
    <PublicShell
      actions={
        <Button asChild size="sm" variant="ghost" mr="1">
          {signedIn ? <Link to="/my">{t("home.open")}</Link> : <Link to={loginPathFor("/demo")}>{t("home.signIn")}</Link>}
        </Button>
      }
    >
      <Stack gap="10" maxWidth="4xl" mx="auto">
        <Stack gap="3">
          <Heading as="h1" size={{ base: "3xl", md: "4xl" }} letterSpacing="-0.02em">
            {t("demo.title")}
          </Heading>
          <Text fontSize="lg" color="fg.muted">
            {t("demo.lead")}
          </Text>
        </Stack>
        {signedIn ? <DemoRunner /> : <VisitorInvitation />}
      </Stack>
    </PublicShell>
  );
}

function WhatItMakes() {
  const { t } = useTranslation();
  return (
    <Stack gap="4">
      <Heading as="h2" size="md">
        {t("demo.willCreate")}
      </Heading>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        {PARTS.map((part) => (
          <HStack key={part.key} align="flex-start" gap="3" p="4" rounded="l3" borderWidth="1px" bg="bg.panel">
            <Box display="inline-flex" rounded="l2" bg="brand.subtle" color="brand.fg" p="2">
              <Icon as={part.icon} boxSize="4" />
            </Box>
            <Stack gap="1">
              <Text fontWeight="semibold">{t(`demo.parts.${part.key}.title`)}</Text>
              <Text fontSize="sm" color="fg.muted">
                {t(`demo.parts.${part.key}.description`)}
              </Text>
            </Stack>
          </HStack>
        ))}
      </SimpleGrid>
      <Text fontSize="sm" color="fg.muted">
        {t("demo.samplesLicence")}
      </Text>
    </Stack>
  );
}

function VisitorInvitation() {
  const { t } = useTranslation();
  return (
    <>
      <WhatItMakes />
      <Stack gap="3" p="6" rounded="l3" borderWidth="1px" bg="bg.panel" data-testid="demo-visitor">
        <Heading as="h2" size="md">
          {t("demo.visitor.title")}
        </Heading>
        <Text color="fg.muted">{t("demo.visitor.body")}</Text>
        <HStack gap="3" mt="2">
          <Button asChild colorPalette="brand" data-testid="demo-sign-up">
            <Link to={loginPathFor("/demo", "signUp")}>{t("demo.visitor.signUp")}</Link>
          </Button>
          <Button asChild variant="outline" data-testid="demo-sign-in">
            <Link to={loginPathFor("/demo")}>{t("demo.visitor.signIn")}</Link>
          </Button>
        </HStack>
      </Stack>
    </>
  );
}

function DemoRunner() {
  const { t, i18n } = useTranslation();
  const { demo, steps, loading, loadError, retryLoad, start, starting, startError, readySeconds } = useDemo();
  if (loadError) return <LoadFailed error={loadError} onRetry={retryLoad} />;
  if (loading) return <Spinner alignSelf="center" />;

  const begun = demo?.knowledgeBase != null;
  const kbId = demo?.knowledgeBase?.id ?? "";
  const firstDocument = demo?.documents[0];
  // Once begun, the button only comes back when something needs another try (a failed parse, a failed finish).
  const offerStart = !begun || (!steps.complete && steps.parsing !== "running" && (startError !== null || !steps.needsFinishing));
  return (
    <>
      {!begun && <WhatItMakes />}
      {offerStart && (
        <HStack gap="3">
          <Button colorPalette="brand" size="lg" onClick={() => void start()} loading={starting} data-testid="demo-start">
            <LuPlay /> {begun ? t("demo.resume") : t("demo.start")}
          </Button>
        </HStack>
      )}
      {startError && (
        <Alert.Root status="error" data-testid="demo-error">
          <Alert.Indicator />
          <Alert.Title>{describeError(startError, i18n)}</Alert.Title>
        </Alert.Root>
      )}
      {(begun || starting) && (
        <Stack gap="4" data-testid="demo-steps">
          <Heading as="h2" size="md">
            {t("demo.steps.title")}
          </Heading>
          <Step state={steps.knowledgeBase} title={t("demo.steps.knowledgeBase")} testId="demo-step-knowledge-base">
            {kbId && <StepLink to={`/knowledge/dataset?id=${kbId}`} testId="demo-link-dataset" label={t("demo.links.dataset")} />}
          </Step>
          <Step state={steps.parsing} title={t("demo.steps.parsing", { done: steps.parsed, total: demo?.sampleCount ?? 0 })} testId="demo-step-parsing">
            <Stack gap="2" width="full">
              {demo?.documents.map((document) => (
                <HStack key={document.id} gap="3" fontSize="sm" data-testid="demo-document" data-run={document.run}>
                  <Text flex="0 0 10rem" truncate>
                    {document.name}
                  </Text>
                  <Progress.Root flex="1" value={document.run === RUN.done ? 100 : Math.max(0, document.progress) * 100} size="sm" colorPalette={document.run === RUN.failed ? "red" : "brand"}>
                    <Progress.Track rounded="full">
                      <Progress.Range />
                    </Progress.Track>
                  </Progress.Root>
                  <Text flex="0 0 6rem" color="fg.muted" textAlign="end">
                    {document.run === RUN.done ? t("demo.chunks", { count: document.chunkCount }) : t(`demo.state.${document.run === RUN.failed ? "failed" : document.run === RUN.running ? "running" : "waiting"}`)}
                  </Text>
                </HStack>
              ))}
              {steps.parsing === "failed" && <Text color="fg.error">{t("demo.parseFailed")}</Text>}
              {steps.parsing === "done" && kbId && firstDocument && (
                <HStack gap="2" wrap="wrap">
                  <StepLink to={`/knowledge/dataset/chunk?id=${kbId}&doc=${firstDocument.id}`} testId="demo-link-chunks" label={t("demo.links.chunks")} />
                  <StepLink to={`/knowledge/testing?id=${kbId}`} testId="demo-link-retrieval" label={t("demo.links.retrieval")} />
                </HStack>
              )}
            </Stack>
          </Step>
          <Step state={steps.assistant} title={t("demo.steps.assistant")} testId="demo-step-assistant">
            {demo?.assistant && <StepLink to={`/chat?assistant=${demo.assistant.id}`} testId="demo-link-ask" label={t("demo.links.ask")} primary />}
          </Step>
          <Step state={steps.flow} title={t("demo.steps.flow")} testId="demo-step-flow">
            {demo?.flow && <StepLink to={`/flow/${demo.flow.id}`} testId="demo-link-flow" label={t("demo.links.flow")} />}
          </Step>
          {steps.complete && (
            <Text color="fg.success" fontWeight="medium" data-testid="demo-ready">
              {readySeconds !== null ? t("demo.readyIn", { seconds: readySeconds }) : t("demo.allReady")}
            </Text>
          )}
        </Stack>
      )}
      {demo?.assistant && (
        <Stack gap="3" p="5" rounded="l3" borderWidth="1px" bg="bg.panel" data-testid="demo-questions">
          <Heading as="h2" size="md">
            {t("demo.questions.title")}
          </Heading>
          <Text fontSize="sm" color="fg.muted">
            {t("demo.questions.note")}
          </Text>
          <Stack gap="1">
            {demo.questions.map((question) => (
              <Flex key={question} align="center" justify="space-between" gap="3" data-testid="demo-question">
                <Text lang="en">{question}</Text>
                <CopyButton value={question} iconOnly testId="demo-question-copy" />
              </Flex>
            ))}
          </Stack>
        </Stack>
      )}
    </>
  );
}

const STATE_ICONS: Record<Exclude<StepState, "running">, { icon: IconType; color: string }> = {
  waiting: { icon: LuCircle, color: "fg.subtle" },
  done: { icon: LuCircleCheck, color: "fg.success" },
  failed: { icon: LuCircleX, color: "fg.error" },
};

function Step({ state, title, testId, children }: { state: StepState; title: string; testId: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <HStack align="flex-start" gap="3" p="4" rounded="l3" borderWidth="1px" bg="bg.panel" data-testid={testId} data-state={state}>
      <Box pt="0.5">{state === "running" ? <Spinner size="sm" color="brand.fg" /> : <Icon as={STATE_ICONS[state].icon} boxSize="5" color={STATE_ICONS[state].color} />}</Box>
      <Stack gap="2" flex="1" minWidth="0">
        <HStack justify="space-between">
          <Text fontWeight="semibold">{title}</Text>
          <Badge variant="subtle" colorPalette={state === "done" ? "green" : state === "failed" ? "red" : "gray"}>
            {t(`demo.state.${state}`)}
          </Badge>
        </HStack>
        {children}
      </Stack>
    </HStack>
  );
}

function StepLink({ to, label, testId, primary = false }: { to: string; label: string; testId: string; primary?: boolean }) {
  return (
    <Button asChild size="sm" variant={primary ? "solid" : "outline"} colorPalette={primary ? "brand" : undefined} alignSelf="flex-start" data-testid={testId}>
      <Link to={to}>{label}</Link>
    </Button>
  );
}
