import { Box, Container, Flex, HStack, Icon, Text } from "@chakra-ui/react";
import { useMutation } from "@apollo/client/react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, Outlet } from "react-router-dom";
import { LanguageMenu } from "../../components/LanguageMenu";
import { Logo } from "../../components/Logo";
import { ThemeMenu } from "../../components/ThemeMenu";
import { UpdateProfileDocument } from "../../graphql/gql/graphql";
import type { Language } from "../../i18n";
import { authStore } from "../../session/authStore";
import { HEADER_NAVIGATION } from "./navigation";
import { UserMenu } from "./UserMenu";

function HeaderNavigation() {
  const { t } = useTranslation();
  return (
    <HStack as="nav" gap="1" aria-label={t("nav.main")} overflowX="auto" css={{ scrollbarWidth: "none" }}>
      {HEADER_NAVIGATION.map((item) => (
        <NavLink key={item.path} to={item.path} title={t(`nav.${item.label}`)} aria-label={t(`nav.${item.label}`)}>
          {({ isActive }) => (
            <HStack
              gap="2"
              px="3"
              h="9"
              rounded="full"
              fontSize="sm"
              fontWeight="medium"
              whiteSpace="nowrap"
              color={isActive ? "brand.fg" : "fg.muted"}
              bg={isActive ? "brand.subtle" : "transparent"}
              borderWidth="1px"
              borderColor={isActive ? "brand.muted" : "transparent"}
              transition="background 0.15s, color 0.15s"
              _hover={{ color: "fg", bg: isActive ? "brand.subtle" : "bg.muted" }}
              data-active={isActive || undefined}
            >
              <Icon as={item.icon} boxSize="4" />
              <Text as="span" display={{ base: "none", lg: "inline" }}>
                {t(`nav.${item.label}`)}
              </Text>
            </HStack>
          )}
        </NavLink>
      ))}
    </HStack>
  );
}

/** The signed-in frame: header with navigation, switchers and the account menu, then the page. */
export default function MainLayout() {
  const [updateProfile] = useMutation(UpdateProfileDocument);

  // The interface language is also the account's language, so the next sign-in anywhere starts in it.
  function storeLanguage(language: Language) {
    void updateProfile({ variables: { input: { language } } })
      .then(({ data }) => data && authStore.rememberUser(data.updateProfile))
      .catch(() => undefined);
  }

  return (
    <Flex direction="column" minHeight="100dvh">
      <Box
        as="header"
        position="sticky"
        top="0"
        zIndex="docked"
        bg={{ base: "rgba(255,255,255,0.82)", _dark: "rgba(18,23,30,0.82)" }}
        backdropFilter="saturate(180%) blur(12px)"
        borderBottomWidth="1px"
        borderColor="border"
      >
        <Container maxWidth="7xl" px={{ base: "4", md: "6" }}>
          <Flex h="16" align="center" gap={{ base: "2", md: "6" }}>
            <Link to="/my" aria-label="Cairn">
              <Logo />
            </Link>
            <Box flex="1" minWidth="0" display="flex" justifyContent={{ base: "flex-start", lg: "center" }}>
              <HeaderNavigation />
            </Box>
            <HStack gap="1" flexShrink={0}>
              <LanguageMenu onChosen={storeLanguage} />
              <ThemeMenu />
              <UserMenu />
            </HStack>
          </Flex>
        </Container>
      </Box>
      <Container as="main" maxWidth="7xl" px={{ base: "4", md: "6" }} py={{ base: "6", md: "10" }} flex="1">
        <Outlet />
      </Container>
    </Flex>
  );
}
