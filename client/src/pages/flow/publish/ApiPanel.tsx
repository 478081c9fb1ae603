import { Alert, Badge, Box, Button, Code, Field, Flex, HStack, Input, SegmentGroup, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuKeyRound, LuPlus } from "react-icons/lu";
import { CopyButton } from "../../../components/CopyButton";
import { SnippetBlock } from "../../../components/share/SnippetBlock";
import { describeError } from "../../../errors";
import { FlowEditorDocument } from "../../../graphql/gql/graphql";
import type { useApiTokens } from "../../../hooks/useApiTokens";
import { flowEndpoints, KEY_PLACEHOLDER, type EndpointInput } from "./endpoints";

/** Begin's inputs of a flow's graph, which the completions endpoint takes with the first question. */
function beginInputsOf(dsl: unknown): EndpointInput[] {
  const components = (dsl as { components?: Record<string, { obj?: { component_name?: string; params?: { query?: unknown } } }> } | null)?.components ?? {};
  const begin = Object.values(components).find((component) => component.obj?.component_name === "Begin");
  const query = Array.isArray(begin?.obj?.params?.query) ? (begin.obj.params.query as unknown[]) : [];
  return query.flatMap((field) => {
    const { key, type } = (field ?? {}) as { key?: unknown; type?: unknown };
    return typeof key === "string" && key ? [{ key, type: typeof type === "string" ? type : "line" }] : [];
  });
}

/** The user's API keys and the one just made in the dialog (the only time its whole text is known). */
export type ApiKeys = ReturnType<typeof useApiTokens>;

/** §2, API publishing: the flow's id and its service API endpoints, each with a ready `curl` that uses one of the user's keys. */
export function ApiPanel({ flowId, keys }: { flowId: string; keys: ApiKeys }) {
  const { t, i18n } = useTranslation();
  const editor = useQuery(FlowEditorDocument, { variables: { id: flowId }, fetchPolicy: "cache-first" });
  // The whole key exists in the browser only when it was made here; otherwise the user pastes the one they kept.
  const [pastedKey, setPastedKey] = useState("");
  const [stream, setStream] = useState(true);
  const apiKey = pastedKey.trim() || keys.createdToken || "";
  const endpoints = flowEndpoints(window.location.origin, flowId, apiKey, beginInputsOf(editor.data?.flow.dsl));

  return (
    <Stack gap="5" data-testid="publish-api">
      <Stack gap="1.5">
        <Text fontSize="sm" fontWeight="medium">
          {t("flow.publish.flowId")}
        </Text>
        <HStack gap="1" bg="bg.subtle" borderWidth="1px" rounded="l2" ps="3" pe="1" py="1" alignSelf="flex-start" maxWidth="full">
          <Code variant="plain" fontSize="sm" truncate data-testid="publish-flow-id">
            {flowId}
          </Code>
          <CopyButton value={flowId} iconOnly testId="publish-flow-id-copy" />
        </HStack>
      </Stack>

      <Stack gap="2" data-testid="publish-key">
        <Text fontSize="sm" fontWeight="medium">
          {t("flow.publish.apiKey")}
        </Text>
        {keys.loading && !keys.data ? (
          <Skeleton height="9" />
        ) : keys.error && !keys.data ? (
          <Text color="fg.error" fontSize="sm">
            {describeError(keys.error, i18n)}
          </Text>
        ) : keys.tokens.length === 0 ? (
          <Alert.Root status="warning" variant="subtle" data-testid="publish-no-key">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t("errors.createApiTokenFirst")}</Alert.Title>
              <Alert.Description>
                <Button size="xs" variant="outline" mt="2" loading={keys.creating} onClick={() => void keys.create()} data-testid="publish-create-key">
                  <LuKeyRound /> {t("chat.embed.createApiKey")}
                </Button>
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
        ) : (
          <Stack gap="2">
            {keys.createdToken && (
              <Alert.Root status="info" variant="subtle" data-testid="publish-key-created">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Title>{t("flow.publish.keyCreated")}</Alert.Title>
                  <HStack gap="1" mt="1">
                    <Code variant="plain" fontSize="sm" wordBreak="break-all" data-testid="publish-key-value">
                      {keys.createdToken}
                    </Code>
                    <CopyButton value={keys.createdToken} iconOnly />
                  </HStack>
                </Alert.Content>
              </Alert.Root>
            )}
            <Flex gap="2" align={{ base: "stretch", md: "flex-end" }} direction={{ base: "column", md: "row" }}>
              <Field.Root flex="1">
                <Field.Label fontSize="xs" color="fg.muted" fontWeight="normal">
                  {t("flow.publish.pasteKey", { hint: keys.tokens[0].hint })}
                </Field.Label>
                <Input size="sm" fontFamily="mono" placeholder={keys.createdToken ?? KEY_PLACEHOLDER} value={pastedKey} onChange={(event) => setPastedKey(event.target.value)} autoComplete="off" spellCheck={false} data-testid="publish-key-input" />
              </Field.Root>
              <Button size="sm" variant="outline" loading={keys.creating} onClick={() => void keys.create()} data-testid="publish-new-key">
                <LuPlus /> {t("api.create")}
              </Button>
            </Flex>
          </Stack>
        )}
      </Stack>

      <Stack gap="3">
        <Flex gap="3" align="center" justify="space-between" wrap="wrap">
          <Text fontSize="sm" fontWeight="medium">
            {t("flow.publish.endpoints")}
          </Text>
          <SegmentGroup.Root size="sm" value={stream ? "stream" : "once"} onValueChange={(details) => setStream(details.value === "stream")} data-testid="publish-stream">
            <SegmentGroup.Indicator />
            <SegmentGroup.Items
              items={[
                { value: "stream", label: t("flow.publish.streaming") },
                { value: "once", label: t("flow.publish.nonStreaming") },
              ]}
            />
          </SegmentGroup.Root>
        </Flex>
        {endpoints.map((endpoint) => (
          <Box key={endpoint.id} data-testid={`publish-endpoint-${endpoint.id}`}>
            <HStack gap="2" mb="1.5" minWidth="0">
              <Badge size="sm" variant="solid" colorPalette={endpoint.method === "GET" ? "green" : "brand"} flexShrink={0}>
                {endpoint.method}
              </Badge>
              <Text fontSize="sm" fontWeight="medium" flexShrink={0}>
                {t(`flow.publish.endpoint.${endpoint.id}`)}
              </Text>
              <Code variant="plain" fontSize="xs" color="fg.muted" truncate title={endpoint.url}>
                {new URL(endpoint.url).pathname}
              </Code>
            </HStack>
            <SnippetBlock label={endpoint.streams ? (stream ? t("flow.publish.streaming") : t("flow.publish.nonStreaming")) : "curl"} text={endpoint.curl(stream)} testId={`publish-curl-${endpoint.id}`} />
          </Box>
        ))}
      </Stack>
    </Stack>
  );
}
