import { Box, Button, chakra, Flex, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuPlay } from "react-icons/lu";
import { Composer } from "../../../components/conversation/Composer";
import { PageSpinner, SharedPageShell, sharedPageState } from "../../../components/share/SharedPageShell";
import { SharedFlowDocument } from "../../../graphql/gql/graphql";
import { BeginInputsForm } from "../shared/BeginInputsForm";
import { askedInputs, emptyValues, runInputs, visitorProblems, type BeginInput, type BeginValues } from "../shared/beginValues";
import { FlowAvatar } from "./FlowAvatar";
import { FlowChatMessageItem } from "./FlowChatMessageItem";
import { useSharedFlowChat, type SharedFlowChat } from "./useSharedFlowChat";

/**
 * A shared flow's page (spec §2, API publishing): a visitor, signed out, talks to the one flow its shared id names, at
 * RAGFlow's address `/chat/share?shared_id=…&from=agent` (the one page other sites may frame). The shared id is the
 * bearer credential (apollo.ts) and the visitor id kept in this browser scopes the sessions to this visitor. Begin's
 * greeting opens the conversation and its inputs are asked first; `embed=widget` is the floating widget's compact look.
 */
export default function SharedFlowPage() {
  const { t } = useTranslation();
  const shared = useQuery(SharedFlowDocument);
  const flow = shared.data?.sharedFlow;
  const chat = useSharedFlowChat(flow?.id ?? null);

  return (
    <SharedPageShell
      testId="shared-flow"
      title={flow?.title}
      titleTestId="shared-flow-title"
      avatar={flow ? (size) => <FlowAvatar name={flow.title} avatar={flow.avatar} size={size} /> : null}
      newConversation={flow ? { onClick: chat.newConversation, disabled: chat.sessionId === null || chat.busy, testId: "shared-flow-new" } : null}
      state={sharedPageState(shared, Boolean(flow))}
      unavailable={{ text: t("flow.publish.shared.unavailable"), testId: "shared-flow-unavailable" }}
    >
      {!flow || chat.loading ? <PageSpinner /> : <Conversation flow={flow} chat={chat} />}
    </SharedPageShell>
  );
}

interface ConversationProps {
  flow: { title: string; avatar?: string | null; prologue: string; inputs: readonly Record<string, unknown>[] };
  chat: SharedFlowChat;
}

/** The messages and the message box; before the first turn of a flow with inputs, the inputs instead of the box. */
function Conversation({ flow, chat }: ConversationProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const inputs = useMemo(() => askedInputs({ query: flow.inputs }), [flow.inputs]);
  const asksInputs = flow.inputs.length > 0 && chat.sessionId === null && chat.messages.length === 0;
  // With inputs, the first turn runs Begin, whose greeting comes as the first answer; without, it is shown at once.
  const greeting = flow.inputs.length === 0 && flow.prologue ? flow.prologue : null;
  const tail = chat.messages.at(-1);

  useEffect(() => {
    const box = scroller.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [chat.messages.length, tail?.content, tail?.status]);

  return (
    <Flex direction="column" height="full" minHeight="0">
      <Box ref={scroller} flex="1" minHeight="0" overflowY="auto" px={{ base: "3", md: "6" }} py="5">
        <Stack gap="5" maxWidth="3xl" mx="auto" data-testid="shared-flow-messages">
          {greeting && <FlowChatMessageItem flow={flow} isGreeting message={{ id: "greeting", role: "assistant", content: greeting, references: [], documents: [], status: "done", error: null }} />}
          {asksInputs && <StartForm inputs={inputs} busy={chat.busy} onStart={(values) => void chat.send("", values)} />}
          {chat.messages.map((message) => (
            <FlowChatMessageItem key={message.id} message={message} flow={flow} />
          ))}
          {chat.failure && (
            <Text color="fg.error" fontSize="sm" role="alert" textAlign="center" data-testid="shared-flow-failure">
              {chat.failure}
            </Text>
          )}
        </Stack>
      </Box>
      {!asksInputs && <MessageBox chat={chat} />}
    </Flex>
  );
}

/** Begin's inputs, asked before the conversation; the flow starts once the required ones are given. */
function StartForm({ inputs, busy, onStart }: { inputs: readonly BeginInput[]; busy: boolean; onStart: (values: Record<string, unknown>) => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<BeginValues>(() => emptyValues(inputs, { firstOption: true }));
  const [tried, setTried] = useState(false);
  const problems = tried ? visitorProblems(inputs, values) : {};

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (Object.keys(visitorProblems(inputs, values)).length === 0) onStart(runInputs(inputs, values));
  }

  return (
    // The browser's own checks would stop the submit before this form says, in the page's language, what is missing.
    <chakra.form noValidate onSubmit={submit} bg="bg.panel" borderWidth="1px" rounded="l3" p="4" data-testid="shared-flow-inputs">
      <Stack gap="4">
        <Text fontSize="sm" color="fg.muted">
          {t("flow.publish.shared.inputsHelp")}
        </Text>
        <BeginInputsForm
          inputs={inputs}
          values={values}
          problems={problems}
          disabled={busy}
          onChange={(key, value) => setValues((current) => ({ ...current, [key]: value }))}
          testIds={{ form: "shared-flow-inputs-fields", field: "shared-flow-input" }}
          files={false}
        />
        <Button type="submit" colorPalette="brand" alignSelf="flex-start" loading={busy} data-testid="shared-flow-start">
          <LuPlay /> {t("flow.publish.shared.start")}
        </Button>
      </Stack>
    </chakra.form>
  );
}

/** The message box; while the flow answers, it stops it. */
function MessageBox({ chat }: { chat: SharedFlowChat }) {
  const { t } = useTranslation();
  const [message, setMessage] = useState("");
  const [sending, setSending] = useState(false);

  async function send() {
    const text = message.trim();
    if (!text || chat.busy) return;
    setSending(true);
    setMessage("");
    await chat.send(text);
    setSending(false);
  }

  return (
    <Composer
      value={message}
      onChange={setMessage}
      onSend={() => void send()}
      onStop={() => void chat.stop()}
      answering={chat.busy}
      sending={sending}
      placeholder={chat.waiting ? t("flow.publish.shared.replyPlaceholder") : t("chat.composer.placeholder")}
      hint={chat.waiting ? t("flow.publish.shared.waiting") : t("chat.composer.hint")}
      testIds={{ input: "shared-flow-input", send: "shared-flow-send", stop: "shared-flow-stop", hint: "shared-flow-hint" }}
    />
  );
}
