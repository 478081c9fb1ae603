import { Box, Center, Flex, Heading, HStack, Icon, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuCheck } from "react-icons/lu";
import { Logo } from "../../components/Logo";

const HIGHLIGHTS = ["knowledge", "retrieval", "flows"] as const;

/** A cairn of five stones over contour lines: the path-marker the product is named after. */
function CairnIllustration() {
  return (
    <svg viewBox="0 0 360 300" width="100%" height="100%" aria-hidden="true" preserveAspectRatio="xMidYMax meet">
      <defs>
        <linearGradient id="stone" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#d5eef5" />
          <stop offset="1" stopColor="#7ccbdd" />
        </linearGradient>
        <linearGradient id="stone-dark" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#7ccbdd" />
          <stop offset="1" stopColor="#2791ad" />
        </linearGradient>
      </defs>
      <g fill="none" stroke="rgba(174,224,236,0.18)" strokeWidth="1.2">
        <path d="M-20 270 C 60 240, 120 262, 190 246 S 320 230, 390 250" />
        <path d="M-20 290 C 70 262, 140 284, 210 268 S 330 256, 390 272" />
        <path d="M-20 250 C 50 222, 110 240, 180 226 S 300 206, 390 226" />
        <path d="M-20 230 C 40 206, 100 220, 170 206 S 290 184, 390 202" />
      </g>
      <ellipse cx="180" cy="272" rx="120" ry="12" fill="rgba(0,0,0,0.25)" />
      <ellipse cx="180" cy="246" rx="92" ry="30" fill="url(#stone-dark)" />
      <ellipse cx="176" cy="198" rx="70" ry="24" fill="url(#stone)" />
      <ellipse cx="184" cy="158" rx="52" ry="19" fill="url(#stone-dark)" />
      <ellipse cx="178" cy="126" rx="36" ry="14" fill="url(#stone)" />
      <ellipse cx="181" cy="101" rx="21" ry="10" fill="#eef8fb" />
      <g fill="rgba(255,255,255,0.35)">
        <ellipse cx="150" cy="236" rx="28" ry="6" />
        <ellipse cx="152" cy="190" rx="20" ry="5" />
        <ellipse cx="166" cy="151" rx="14" ry="4" />
        <ellipse cx="166" cy="121" rx="9" ry="3" />
      </g>
    </svg>
  );
}

export function BrandPanel() {
  const { t } = useTranslation();
  return (
    <Flex
      direction="column"
      justify="space-between"
      flex="1"
      minHeight="100dvh"
      position="relative"
      overflow="hidden"
      color="white"
      px="14"
      py="12"
      bgImage="radial-gradient(120% 80% at 10% 0%, #1f7591 0%, rgba(31,117,145,0) 60%), linear-gradient(165deg, #123444 0%, #0f2a37 55%, #0b1f29 100%)"
    >
      <Logo size={34} color="white" />
      <Stack gap="6" maxWidth="lg" position="relative" zIndex="1">
        <Text fontSize="sm" fontWeight="semibold" letterSpacing="0.08em" textTransform="uppercase" color="brand.200">
          {t("login.eyebrow")}
        </Text>
        <Heading as="p" fontSize={{ lg: "3xl", xl: "4xl" }} lineHeight="1.15" letterSpacing="-0.02em" fontWeight="semibold">
          {t("brand.tagline")}
        </Heading>
        <Stack gap="3">
          {HIGHLIGHTS.map((highlight) => (
            <HStack key={highlight} gap="3" align="flex-start">
              <Center flexShrink={0} boxSize="6" mt="0.5" rounded="full" bg="rgba(124,203,221,0.18)" color="brand.200">
                <Icon as={LuCheck} boxSize="3.5" />
              </Center>
              <Text color="rgba(255,255,255,0.82)">{t(`login.highlights.${highlight}`)}</Text>
            </HStack>
          ))}
        </Stack>
      </Stack>
      <Box position="absolute" right="-10" bottom="0" width="62%" height="58%" opacity="0.9" pointerEvents="none">
        <CairnIllustration />
      </Box>
      <Text fontSize="xs" color="rgba(255,255,255,0.5)" position="relative" zIndex="1">
        {t("login.footer", { year: new Date().getFullYear() })}
      </Text>
    </Flex>
  );
}
