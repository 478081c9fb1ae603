import { Badge, Box, HStack, Icon, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuBookOpenText } from "react-icons/lu";

/** Beside the form: what the chosen chunk method does, which files it takes, and an example (texts under `chunkMethods.<name>`). */
export function ChunkMethodGuide({ method, fileTypes }: { method: string; fileTypes: string[] }) {
  const { t, i18n } = useTranslation();
  const key = (part: string) => `chunkMethods.${method}.${part}`;
  const example = i18n.exists(key("example")) ? t(key("example")) : "";
  return (
    <Box bg="bg.panel" borderWidth="1px" rounded="l3" p="6" data-testid="chunk-method-guide">
      <Stack gap="4">
        <HStack gap="3">
          <Box rounded="l2" bg="brand.subtle" color="brand.fg" p="2">
            <Icon as={LuBookOpenText} boxSize="5" />
          </Box>
          <Stack gap="0">
            <Text fontSize="xs" color="fg.subtle" textTransform="uppercase" letterSpacing="0.06em" fontWeight="semibold">
              {t("kb.field.chunkMethod")}
            </Text>
            <Text fontWeight="semibold" fontSize="lg">
              {t(key("label"), { defaultValue: method })}
            </Text>
          </Stack>
        </HStack>
        <Text fontSize="sm" color="fg.muted" whiteSpace="pre-line">
          {i18n.exists(key("description")) ? t(key("description")) : t("kb.guide.noDescription")}
        </Text>
        {fileTypes.length > 0 && (
          <Stack gap="2">
            <Text fontSize="sm" fontWeight="medium">
              {t("kb.guide.fileTypes")}
            </Text>
            <HStack gap="1.5" wrap="wrap">
              {fileTypes.map((type) => (
                <Badge key={type} variant="outline" size="sm" fontFamily="mono">
                  {type.toUpperCase()}
                </Badge>
              ))}
            </HStack>
          </Stack>
        )}
        {example && (
          <Stack gap="2">
            <Text fontSize="sm" fontWeight="medium">
              {t("kb.guide.example")}
            </Text>
            <Box bg="bg.subtle" borderWidth="1px" rounded="l2" p="3" fontSize="sm" color="fg.muted" whiteSpace="pre-line">
              {example}
            </Box>
          </Stack>
        )}
      </Stack>
    </Box>
  );
}
