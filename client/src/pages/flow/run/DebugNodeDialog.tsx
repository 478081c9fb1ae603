import { Alert, Badge, Box, Button, CloseButton, Code, Dialog, HStack, Input, Portal, Stack, Text, Textarea } from "@chakra-ui/react";
import { useMutation } from "@apollo/client/react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuPlay } from "react-icons/lu";
import { FormField } from "../../../components/FormField";
import { describeError } from "../../../errors";
import { DebugFlowComponentDocument, type DebugFlowComponentMutation } from "../../../graphql/gql/graphql";
import type { EditorNode } from "../flowTypes";
import { debugReferences } from "./debugReferences";
import { JsonBlock } from "./JsonBlock";
import { useElapsedText } from "./runLook";

/** Runs one node alone on edited inputs (debugFlowComponent). */
export interface DebugNodeDialogProps {
  flowId: string;
  /** The node to run, with the params being edited; null: closed. */
  node: EditorNode | null;
  beforeRun: () => Promise<boolean>;
  onClose: () => void;
}

type DebugResult = DebugFlowComponentMutation["debugFlowComponent"];

/**
 * One node run alone: its default input, a value for each reference its params hold, and its params as the form has
 * them now (saved or not). Nothing is stored; the result says what it would have said, what it gave, its time and tokens.
 */
export function DebugNodeDialog({ flowId, node, beforeRun, onClose }: DebugNodeDialogProps) {
  const { t, i18n } = useTranslation();
  const elapsed = useElapsedText();
  const [input, setInput] = useState("");
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<DebugResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [debug, { loading }] = useMutation(DebugFlowComponentDocument);
  const references = useMemo(() => (node ? debugReferences(node.params) : []), [node]);
  const busy = saving || loading;
  const nodeId = node?.id ?? null;

  useEffect(() => {
    setInput("");
    setValues({});
    setResult(null);
    setFailure(null);
  }, [nodeId]);

  async function run() {
    if (!node) return;
    setFailure(null);
    setResult(null);
    setSaving(true);
    try {
      // The server runs the component of the saved flow (the params given go over its own): a new node must be saved first.
      if (!(await beforeRun())) return;
    } finally {
      setSaving(false);
    }
    try {
      const given = Object.fromEntries(references.map((reference) => [reference, values[reference] ?? ""]));
      const { data } = await debug({ variables: { flowId, input: { componentId: node.id, params: node.params, input, values: given } } });
      if (data) setResult(data.debugFlowComponent);
    } catch (error) {
      setFailure(describeError(error, i18n));
    }
  }

  return (
    <Dialog.Root open={node !== null} onOpenChange={(event) => !event.open && !busy && onClose()} placement="center" size="lg" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="debug-node-dialog">
            <Dialog.Header>
              <Dialog.Title>{t("flow.run.debug.title", { name: node?.name ?? "" })}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="5">
                <Text fontSize="sm" color="fg.muted">
                  {t("flow.run.debug.description")}
                </Text>
                <FormField label={t("flow.run.debug.input")} helper={t("flow.run.debug.inputHelp")}>
                  <Textarea rows={3} value={input} onChange={(event) => setInput(event.target.value)} data-testid="debug-input" />
                </FormField>
                {references.length > 0 && (
                  <Stack gap="3">
                    <Text fontSize="sm" fontWeight="semibold">
                      {t("flow.run.debug.references")}
                    </Text>
                    {references.map((reference) => (
                      <Stack key={reference} gap="1">
                        <Code size="sm" alignSelf="flex-start" maxWidth="full" truncate>
                          {reference}
                        </Code>
                        <Input size="sm" value={values[reference] ?? ""} onChange={(event) => setValues((current) => ({ ...current, [reference]: event.target.value }))} aria-label={reference} data-testid={`debug-value-${reference}`} />
                      </Stack>
                    ))}
                  </Stack>
                )}
                {failure && (
                  <Alert.Root status="error" size="sm" data-testid="debug-failure">
                    <Alert.Indicator />
                    <Alert.Title>{failure}</Alert.Title>
                  </Alert.Root>
                )}
                {result && <DebugResultView result={result} elapsed={elapsed(result.elapsedMs)} />}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} disabled={busy}>
                {t("common.close")}
              </Button>
              <Button colorPalette="brand" loading={busy} onClick={() => void run()} data-testid="debug-run">
                <LuPlay /> {t("flow.run.debug.run")}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" disabled={busy} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function DebugResultView({ result, elapsed }: { result: DebugResult; elapsed: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="3" borderTopWidth="1px" pt="4" data-testid="debug-result" data-failed={result.error ? "true" : "false"}>
      <HStack gap="2" wrap="wrap">
        <Text fontSize="sm" fontWeight="semibold">
          {t("flow.run.debug.result")}
        </Text>
        <Badge size="sm" variant="subtle" colorPalette={result.error ? "red" : "green"}>
          {t(result.error ? "flow.run.nodeStatus.failed" : "flow.run.nodeStatus.done")}
        </Badge>
        <Text fontSize="xs" color="fg.muted" data-testid="debug-elapsed">
          {elapsed}
        </Text>
        <Text fontSize="xs" color="fg.muted">
          {t("flow.run.tokens", { count: result.tokens })}
        </Text>
      </HStack>
      {result.error && (
        <Alert.Root status="error" size="sm" data-testid="debug-error">
          <Alert.Indicator />
          <Alert.Title whiteSpace="pre-wrap" wordBreak="break-word">
            {result.error}
          </Alert.Title>
        </Alert.Root>
      )}
      {result.said && (
        <Stack gap="1">
          <Text fontSize="xs" fontWeight="semibold" color="fg.muted">
            {t("flow.run.debug.said")}
          </Text>
          <Box fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word" bg="bg.subtle" borderWidth="1px" rounded="l2" p="2.5" maxHeight="48" overflowY="auto" data-testid="debug-said">
            {result.said}
          </Box>
        </Stack>
      )}
      {result.output && <JsonBlock title={t("flow.run.details.output")} value={result.output} testId="debug-output" />}
    </Stack>
  );
}
