import { Box, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import type { FilePreviewFragment } from "../../graphql/gql/graphql";

type Slide = NonNullable<FilePreviewFragment["slides"]>[number];

/** A presentation as the text of its slides, one card each. */
export function SlidesPreview({ slides }: { slides: Slide[] }) {
  const { t } = useTranslation();
  if (slides.length === 0) return <Text color="fg.muted">{t("preview.noText")}</Text>;
  return (
    <Stack gap="4" maxWidth="3xl" mx="auto" data-testid="preview-slides">
      {slides.map((slide) => (
        <Box key={slide.number} borderWidth="1px" rounded="l2" p="5" bg="bg.subtle" data-testid="preview-slide">
          <Text fontSize="xs" color="fg.muted" mb="1">
            {t("preview.slide", { number: slide.number })}
          </Text>
          {slide.title && (
            <Text fontSize="lg" fontWeight="semibold" mb="2">
              {slide.title}
            </Text>
          )}
          <Text whiteSpace="pre-wrap" fontSize="sm" lineHeight="1.7">
            {slide.text}
          </Text>
        </Box>
      ))}
    </Stack>
  );
}
