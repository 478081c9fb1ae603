import { Box, Button, Center, Flex, Heading, HStack, Icon, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuArrowLeft, LuLogIn, LuNetwork } from "react-icons/lu";
import { Link as RouterLink, useLocation } from "react-router-dom";
import { LanguageMenu } from "../../components/LanguageMenu";
import { Logo } from "../../components/Logo";
import { ThemeMenu } from "../../components/ThemeMenu";
import { useAuthToken } from "../../session/authStore";
import { HOME_PATH, loginPathFor } from "../../session/returnTo";
import { ForceExplorer } from "./ForceExplorer";

/**
 * /force, outside the signed-in layout (§2, §6): the whole window for the knowledge-graph explorer under a small
 * header. A visitor who has not signed in reads what it is and signs in, coming back here.
 */
export default function ForceGraphPage() {
  const { t } = useTranslation();
  const token = useAuthToken();
  return (
    <Flex direction="column" height="100dvh" bg="bg" data-testid="force-page">
      <Box as="header" borderBottomWidth="1px" borderColor="border" bg="bg.panel" flexShrink={0}>
        <Flex h="14" px="4" align="center" gap="4">
          <RouterLink to={token ? HOME_PATH : "/home"} aria-label="Cairn">
            <Logo size={24} />
          </RouterLink>
          <HStack gap="2" color="fg.muted" minWidth="0">
            <Icon as={LuNetwork} />
            <Heading as="h1" size="sm" truncate>
              {t("force.title")}
            </Heading>
          </HStack>
          <HStack gap="1" ms="auto">
            {token && (
              <Button asChild size="sm" variant="ghost" data-testid="force-back">
                <RouterLink to={HOME_PATH}>
                  <LuArrowLeft /> {t("force.back")}
                </RouterLink>
              </Button>
            )}
            <LanguageMenu />
            <ThemeMenu />
          </HStack>
        </Flex>
      </Box>
      <Box flex="1" minHeight="0">
        {token ? <ForceExplorer /> : <VisitorIntro />}
      </Box>
    </Flex>
  );
}

/** What the explorer is, for a visitor, and the way in. */
function VisitorIntro() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Center height="full" px="6">
      <Stack align="center" gap="5" maxWidth="lg" textAlign="center" data-testid="force-visitor">
        <Box rounded="full" bg="brand.subtle" color="brand.fg" p="4" borderWidth="1px" borderColor="brand.muted">
          <Icon as={LuNetwork} boxSize="8" />
        </Box>
        <Heading as="h2" size="xl">
          {t("force.visitor.title")}
        </Heading>
        <Text color="fg.muted">{t("force.visitor.body")}</Text>
        <Button asChild colorPalette="brand" data-testid="force-sign-in">
          <RouterLink to={loginPathFor(location.pathname + location.search)}>
            <LuLogIn /> {t("force.visitor.signIn")}
          </RouterLink>
        </Button>
      </Stack>
    </Center>
  );
}
