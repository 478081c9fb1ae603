import { Badge, Box, Button, Grid, Heading, HStack, Icon, Image, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import type { IconType } from "react-icons";
import { LuArrowRight, LuBookOpen, LuCpu, LuKeyRound, LuLanguages, LuLibrary, LuMessagesSquare, LuNetwork, LuPlug, LuSearch, LuSparkles, LuTextSearch, LuUsers, LuWorkflow } from "react-icons/lu";
import { Link } from "react-router-dom";
import { PublicShell } from "../../components/PublicShell";
import { useAuthToken } from "../../session/authStore";
import { loginPathFor, HOME_PATH } from "../../session/returnTo";

/** Screenshots of the running product, taken by `npm run screenshots:home` (tests/screenshots/home.mjs) into client/public. */
const SCREENS = ["knowledge", "retrieval", "chat", "flow"] as const;

const CAPABILITIES: { key: string; icon: IconType }[] = [
  { key: "knowledge", icon: LuLibrary },
  { key: "retrieval", icon: LuTextSearch },
  { key: "chat", icon: LuMessagesSquare },
  { key: "flow", icon: LuWorkflow },
  { key: "files", icon: LuBookOpen },
  { key: "search", icon: LuSearch },
  { key: "teams", icon: LuUsers },
  { key: "api", icon: LuKeyRound },
  { key: "graphql", icon: LuNetwork },
  { key: "offline", icon: LuCpu },
  { key: "providers", icon: LuPlug },
  { key: "languages", icon: LuLanguages },
];

/** The public page (outside the guard): what Cairn is, as it is, and the way in — sign up, or the guided demo. */
export default function HomePage() {
  const { t } = useTranslation();
  const signedIn = useAuthToken() !== null;
  const entry = signedIn ? { to: HOME_PATH, label: t("home.open") } : { to: loginPathFor(HOME_PATH, "signUp"), label: t("home.signUp") };

  const actions = (
    <HStack gap="3" wrap="wrap">
      <Button asChild colorPalette="brand" size="lg" data-testid="home-sign-up">
        <Link to={entry.to}>
          {entry.label} <LuArrowRight />
        </Link>
      </Button>
      <Button asChild variant="outline" size="lg" data-testid="home-try-demo">
        <Link to="/demo">
          <LuSparkles /> {t("home.tryDemo")}
        </Link>
      </Button>
    </HStack>
  );

  return (
    <PublicShell
      actions={
        !signedIn && (
          <Button asChild size="sm" variant="ghost" mr="1" data-testid="home-sign-in">
            <Link to={loginPathFor(HOME_PATH)}>{t("home.signIn")}</Link>
          </Button>
        )
      }
    >
      <Stack gap="20">
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
          {actions}
        </Stack>

        <Stack gap="10">
          <Stack gap="2" maxWidth="3xl">
            <Heading as="h2" size="2xl" letterSpacing="-0.02em">
              {t("home.screens.title")}
            </Heading>
            <Text color="fg.muted">{t("home.screens.lead")}</Text>
          </Stack>
          {SCREENS.map((screen, index) => (
            <Grid
              key={screen}
              templateColumns={{ base: "1fr", md: index % 2 === 0 ? "minmax(0, 1fr) minmax(0, 2.2fr)" : "minmax(0, 2.2fr) minmax(0, 1fr)" }}
              gap={{ base: "4", md: "8" }}
              alignItems="center"
              data-testid="home-screen"
            >
              {/* Text and picture alternate sides on wide screens; on narrow ones the text always comes first. */}
              <Stack gap="2" order={{ base: 0, md: index % 2 === 0 ? 0 : 1 }}>
                <Heading as="h3" size="lg">
                  {t(`home.screens.${screen}.title`)}
                </Heading>
                <Text color="fg.muted">{t(`home.screens.${screen}.description`)}</Text>
              </Stack>
              <Box rounded="l3" borderWidth="1px" overflow="hidden" boxShadow="lg" bg="bg.panel">
                <Image src={`/screenshots/${screen}.webp`} alt={t(`home.screens.${screen}.title`)} width="1280" height="800" loading="lazy" display="block" w="full" h="auto" />
              </Box>
            </Grid>
          ))}
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

        <Stack gap="4" align="center" textAlign="center" p={{ base: "8", md: "12" }} rounded="l3" borderWidth="1px" bg="bg.panel">
          <Heading as="h2" size="2xl" letterSpacing="-0.02em">
            {t("home.closing.title")}
          </Heading>
          <Text color="fg.muted" maxWidth="2xl">
            {t("home.closing.body")}
          </Text>
          {actions}
        </Stack>
      </Stack>
    </PublicShell>
  );
}
