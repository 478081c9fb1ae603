import { Alert, Box, Button, CloseButton, Flex, HStack, IconButton, Stack, Text, Textarea } from "@chakra-ui/react";
import { useEffect, useMemo, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuPlay, LuRotateCcw, LuSendHorizontal, LuSquare } from "react-icons/lu";
import { useStickToBottom } from "../../../hooks/useStickToBottom";
import type { EditorNode } from "../flowTypes";
import { BeginInputsForm } from "../shared/BeginInputsForm";
import { askedInputs, checkValues, emptyValues, greetingOf, runInputs, type BeginValues, type InputProblem } from "../shared/beginValues";
import { isLive } from "./runEvents";
import { RunConversation } from "./RunConversation";
import { RunStatusBadge } from "./runLook";
import { RunSteps } from "./RunSteps";
import type { FlowRunController } from "./useFlowRun";

export interface RunPanelProps {
  flowId: string;
  controller: FlowRunController;
  /** The Begin node: its `query` params are the inputs asked for. */
  begin: EditorNode | null;
  /** Saves pending edits first; false: do not run. */
  beforeRun: () => Promise<boolean>;
  /** Why the flow may not run now (invalid nodes), translated; null when it may. */
  blockedReason: string | null;
  onClose: () => void;
}

/**
 * The editor's side panel for running the flow. Before the first turn: Begin's inputs (when it has any) and its
 * greeting; "Run" starts a session on them, and so does a first message, which the flow then answers (the greeting
 * counts as said). Then the conversation: answers stream with their citations, the composer answers an Answer that
 * waits, Stop ends a running turn, "New run" starts over. This turn's steps are listed under the conversation.
 */
export function RunPanel({ controller, begin, beforeRun, blockedReason, onClose }: RunPanelProps) {
  const { t } = useTranslation();
  const inputs = useMemo(() => askedInputs(begin?.params), [begin?.params]);
  const [edited, setEdited] = useState<BeginValues>({});
  const [problems, setProblems] = useState<Record<string, InputProblem>>({});
  const [message, setMessage] = useState("");
  const [saving, setSaving] = useState(false);
  const scroll = useStickToBottom();

  const { status, messages, steps } = controller;
  const values = { ...emptyValues(inputs), ...edited };
  const live = isLive(status);
  const started = status !== "idle";
  const busy = saving || controller.pending;
  const mayStart = blockedReason === null && !busy;
  const tail = messages.at(-1);
  // Until this turn's answer begins, a line says the flow is at work.
  const working = live && !(tail?.role === "assistant" && tail.runId === controller.runId);
  // The conversation follows its newest words; before the first turn the form is read from its top.
  useEffect(() => {
    if (started) scroll.scrollDownIfStuck();
    else if (scroll.box.current) scroll.box.current.scrollTop = 0;
  }, [started, messages.length, tail?.content, steps.length, working, controller.error]);

  async function startRun() {
    const found = checkValues(inputs, values);
    setProblems(found);
    const [firstProblem] = Object.keys(found);
    if (firstProblem !== undefined) {
      // The form may be scrolled away (a first message typed below it): its first problem is brought into view.
      const field = scroll.box.current?.querySelector<HTMLElement>(`[data-testid="run-input-${CSS.escape(firstProblem)}"]`);
      field?.scrollIntoView({ block: "center", behavior: "smooth" });
      field?.focus({ preventScroll: true });
      return;
    }
    if (!mayStart) return;
    setSaving(true);
    try {
      if (!(await beforeRun())) return;
    } finally {
      setSaving(false);
    }
    scroll.stick();
    if (await controller.start(runInputs(inputs, values), message)) setMessage("");
  }

  async function send() {
    if (!started) return startRun();
    const text = message.trim();
    if (!text || live || busy) return;
    scroll.stick();
    if (await controller.reply(text)) setMessage("");
  }

  function sendOnEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  function newRun() {
    controller.reset();
    setProblems({});
    setMessage("");
  }

  const placeholder = !started ? t("flow.run.composer.first") : status === "waiting" ? t("flow.run.composer.reply") : t("flow.run.composer.again");
  return (
    <Flex direction="column" width="420px" maxWidth="100%" height="full" minHeight="0" bg="bg" borderStartWidth="1px" data-testid="run-panel" data-status={status}>
      <HStack px="4" py="2.5" borderBottomWidth="1px" gap="2" flexShrink={0}>
        <Text fontWeight="semibold">{t("flow.run.title")}</Text>
        {started && <RunStatusBadge status={status} />}
        <Box flex="1" />
        <Button size="xs" variant="ghost" disabled={!started || live || busy} onClick={newRun} data-testid="run-new">
          <LuRotateCcw /> {t("flow.run.newRun")}
        </Button>
        <CloseButton size="sm" onClick={onClose} aria-label={t("common.close")} data-testid="run-close" />
      </HStack>

      <Box ref={scroll.box} flex="1" minHeight="0" overflowY="auto" px="4" py="4" onScroll={scroll.onScroll}>
        <Stack gap="5">
          {blockedReason !== null && !started && (
            <Alert.Root status="warning" size="sm" data-testid="run-blocked">
              <Alert.Indicator />
              <Alert.Title>{blockedReason}</Alert.Title>
            </Alert.Root>
          )}
          {!started && inputs.length > 0 && (
            <Stack gap="3" borderWidth="1px" rounded="l3" p="4" bg="bg.panel">
              <Text fontSize="sm" fontWeight="semibold">
                {t("flow.run.inputs.title")}
              </Text>
              <BeginInputsForm
                inputs={inputs}
                values={values}
                problems={problems}
                disabled={busy}
                testIds={{ form: "run-inputs", field: "run-input" }}
                files
                onChange={(key, value) => {
                  setEdited((current) => ({ ...current, [key]: value }));
                  setProblems(({ [key]: _solved, ...others }) => others);
                }}
              />
            </Stack>
          )}
          <RunConversation greeting={greetingOf(begin?.params.prologue, runInputs(inputs, values))} messages={messages} working={working} />
          {!started && (
            <Stack gap="1.5" align="center">
              <Button colorPalette="brand" size="sm" loading={busy} disabled={!mayStart} onClick={() => void startRun()} data-testid="run-start">
                <LuPlay /> {t("flow.run.start")}
              </Button>
              <Text fontSize="xs" color="fg.subtle" textAlign="center">
                {t("flow.run.startHint")}
              </Text>
            </Stack>
          )}
          {controller.error && (
            <Alert.Root status="error" size="sm" data-testid="run-error">
              <Alert.Indicator />
              <Alert.Title whiteSpace="pre-wrap" wordBreak="break-word">
                {controller.error}
              </Alert.Title>
            </Alert.Root>
          )}
          {status === "cancelled" && (
            <Text fontSize="xs" color="fg.muted" textAlign="center" data-testid="run-stopped">
              {t("flow.run.stopped")}
            </Text>
          )}
          <RunSteps steps={steps} nodeStates={controller.nodeStates} />
        </Stack>
      </Box>

      <Box px="3" pb="3" pt="2" borderTopWidth="1px" flexShrink={0}>
        <Flex gap="2" align="flex-end" bg="bg.panel" borderWidth="1px" rounded="l3" p="1.5" _focusWithin={{ borderColor: "brand.solid" }}>
          <Textarea
            flex="1"
            variant="flushed"
            border="0"
            px="2"
            rows={1}
            autoresize
            maxHeight="32"
            resize="none"
            fontSize="sm"
            _focusVisible={{ outline: "none", boxShadow: "none" }}
            placeholder={placeholder}
            aria-label={placeholder}
            value={message}
            disabled={live || (!started && blockedReason !== null)}
            onChange={(event) => setMessage(event.target.value)}
            onKeyDown={sendOnEnter}
            data-testid="run-composer"
          />
          {live ? (
            <IconButton key="stop" size="sm" colorPalette="red" variant="subtle" aria-label={t("flow.run.stop")} title={t("flow.run.stop")} loading={controller.pending} onClick={() => void controller.stop()} data-testid="run-stop">
              <LuSquare />
            </IconButton>
          ) : (
            <IconButton
              key="send"
              size="sm"
              colorPalette="brand"
              aria-label={t("flow.run.send")}
              title={t("flow.run.send")}
              loading={busy}
              disabled={started ? !message.trim() : !mayStart || !message.trim()}
              onClick={() => void send()}
              data-testid="run-send"
            >
              <LuSendHorizontal />
            </IconButton>
          )}
        </Flex>
      </Box>
    </Flex>
  );
}
