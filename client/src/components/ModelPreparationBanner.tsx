import { Box, Container, HStack, Progress, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { BuiltinModelsPreparationDocument } from "../graphql/gql/graphql";

const POLL_MS = 2000;

/**
 * Says, while it lasts, that the built-in models are still being prepared — which happens only when the
 * build left nothing prepared — so that a parse or an answer that waits for them does not look stuck.
 */
export function ModelPreparationBanner() {
  const { t } = useTranslation();
  const { data, startPolling, stopPolling } = useQuery(BuiltinModelsPreparationDocument, { fetchPolicy: "network-only" });
  const preparing = Boolean(data?.builtinModelsPreparation);
  useEffect(() => {
    if (preparing) startPolling(POLL_MS);
    else stopPolling();
  }, [preparing, startPolling, stopPolling]);
  const preparation = data?.builtinModelsPreparation;
  if (!preparation) return null;
  const percent = Math.round(preparation.fraction * 100);
  return (
    <Box role="status" bg="brand.subtle" borderBottomWidth="1px" borderColor="brand.muted">
      <Container maxWidth="7xl" px={{ base: "4", md: "6" }} py="2">
        <HStack gap="4">
          <Text fontSize="sm" flex="1">
            {t("models.preparation.message", { percent })}
          </Text>
          <Progress.Root value={percent} size="xs" width="32" colorPalette="brand">
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        </HStack>
      </Container>
    </Box>
  );
}
