import { Badge, Box, Button, Heading, HStack, Icon, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import type { IconType } from "react-icons";
import { LuArrowRight, LuBookOpen, LuKeyRound, LuLibrary, LuMessagesSquare, LuSearch, LuWorkflow } from "react-icons/lu";
import { Link } from "react-router-dom";
import { PublicShell } from "../../components/PublicShell";
import { useAuthToken } from "../../session/authStore";

const CAPABILITIES: { key: string; icon: IconType }[] = [
  { key: "knowledge", icon: LuLibrary },
  { key: "retrieval", icon: LuSearch },
  { key: "chat", icon: LuMessagesSquare },
  { key: "flow", icon: LuWorkflow },
  { key: "files", icon: LuBookOpen },
  { key: "api", icon: LuKeyRound },
];

/** The public page (outside the guard): what Cairn is, and the way in. */
export default function HomePage() {
  const { t } = useTranslation();
  const signedIn = useAuthToken() !== null;
  const entry = signedIn ? { to: "/my", label: t("home.open") } : { to: "/login", label: t("home.signIn") };

  return (
    <PublicShell
      actions={
        <Button asChild size="sm" variant="ghost" mr="1">
          <Link to={entry.to}>{entry.label}</Link>
        </Button>
      }
    >
      <Stack gap="16">
        <Stack gap="6" maxWidth="3xl">
          <Badge alignSelf="flex-start" colorPalette="brand" variant="subtle" rounded="full" px="3" py="1">
            {t("home.eyebrow")}
          </Badge>
          <Heading as="h1" size={{ base: "4xl", md: "5xl" }} letterSpacing="-0.03em" lineHeight="1.1">
            {t("brand.tagline")}
          </Heading>
          <Text fontSize="lg" color="fg.muted">
            {t("home.lead")}
          </Text>
          <HStack gap="3">
            <Button asChild colorPalette="brand" size="lg">
              <Link to={entry.to}>
                {entry.label} <LuArrowRight />
              </Link>
            </Button>
          </HStack>
        </Stack>
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="5">
          {CAPABILITIES.map((capability) => (
            <Box key={capability.key} p="6" rounded="l3" borderWidth="1px" bg="bg.panel">
              <Box display="inline-flex" rounded="l2" bg="brand.subtle" color="brand.fg" p="2.5" mb="4">
                <Icon as={capability.icon} boxSize="5" />
              </Box>
              <Text fontWeight="semibold" mb="1.5">
                {t(`home.capabilities.${capability.key}.title`)}
              </Text>
              <Text fontSize="sm" color="fg.muted">
                {t(`home.capabilities.${capability.key}.description`)}
              </Text>
            </Box>
          ))}
        </SimpleGrid>
      </Stack>
    </PublicShell>
  );
}
