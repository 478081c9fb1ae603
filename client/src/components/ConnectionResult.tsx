import { Box, HStack, Icon, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuCircleCheck, LuCircleX } from "react-icons/lu";
import { useFormatters } from "../format";
import type { TestModelConnectionMutation } from "../graphql/gql/graphql";

export type ConnectionTest = TestModelConnectionMutation["testModelConnection"];

/** What a connection test found (a model, a flow's database): that it answered and how fast, or the service's own words. */
export function ConnectionResult({ result }: { result: ConnectionTest }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const latency = t("models.test.latency", { ms: format.number(result.latencyMs) });
  if (result.ok) {
    return (
      <HStack gap="1.5" color="green.fg" fontSize="sm" role="status" data-testid="connection-result" data-ok="true">
        <Icon as={LuCircleCheck} boxSize="4" flexShrink="0" />
        <Text fontWeight="medium">{t("models.test.ok")}</Text>
        <Text color="fg.muted">· {latency}</Text>
      </HStack>
    );
  }
  return (
    <Box
      role="alert"
      data-testid="connection-result"
      data-ok="false"
      bg="red.subtle"
      borderWidth="1px"
      borderColor="red.muted"
      rounded="l2"
      px="3"
      py="2"
      fontSize="sm"
      width="full"
    >
      <HStack gap="1.5" color="red.fg" align="center">
        <Icon as={LuCircleX} boxSize="4" flexShrink="0" />
        <Text fontWeight="medium">{t("models.test.failed")}</Text>
        <Text color="fg.muted">· {latency}</Text>
      </HStack>
      {result.message && (
        <Text mt="1" color="fg" wordBreak="break-word" data-testid="connection-message">
          {result.messageKey ? t(result.messageKey, { ...result.params, defaultValue: result.message }) : result.message}
        </Text>
      )}
    </Box>
  );
}
