import { Box, Container, Flex, HStack, Icon, Text } from "@chakra-ui/react";
import { useMutation } from "@apollo/client/react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, Outlet, useMatch } from "react-router-dom";
import { LanguageMenu } from "../../components/LanguageMenu";
import { Logo } from "../../components/Logo";
import { ModelPreparationBanner } from "../../components/ModelPreparationBanner";
import { ThemeMenu } from "../../components/ThemeMenu";
import { UpdateProfileDocument, type ProfileInput } from "../../graphql/gql/graphql";
import { authStore } from "../../session/authStore";
import { colorSchemaForTheme } from "../../theme";
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
              <Text as="span">{t(`nav.${item.label}`)}</Text>
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
  // The flow editor's canvas takes the whole width under the header.
  const fullWidth = useMatch("/flow/:id") !== null;

  /**
   * The header's choices are also the account's: the language, so that the next sign-in anywhere starts
   * in it, and light or dark as the profile's colour schema ("system" has no equivalent there). They are
   * saved quietly; the interface has changed already whatever the server says.
   */
  function storeInProfile(input: ProfileInput) {
    void updateProfile({ variables: { input } })
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
          {/* On narrow screens the navigation moves to a second, scrollable row under the logo and the menus. */}
          <Flex align="center" wrap={{ base: "wrap", lg: "nowrap" }} columnGap={{ base: "2", md: "6" }} minHeight="16">
            <Link to="/my" aria-label="Cairn">
              <Logo />
            </Link>
            <Box
              order={{ base: 3, lg: 0 }}
              flexBasis={{ base: "100%", lg: "auto" }}
              flex={{ lg: "1" }}
              minWidth="0"
              display="flex"
              justifyContent={{ base: "flex-start", lg: "center" }}
              pb={{ base: "2", lg: "0" }}
            >
              <HeaderNavigation />
            </Box>
            <HStack gap="1" flexShrink={0} ms="auto" h="16">
              <LanguageMenu onChosen={(language) => storeInProfile({ language })} />
              <ThemeMenu onChosen={(theme) => theme !== "system" && storeInProfile({ colorSchema: colorSchemaForTheme(theme) })} />
              <UserMenu />
            </HStack>
          </Flex>
        </Container>
      </Box>
      <ModelPreparationBanner />
      {fullWidth ? (
        <Box as="main" flex="1" minHeight="0">
          <Outlet />
        </Box>
      ) : (
        <Container as="main" maxWidth="7xl" px={{ base: "4", md: "6" }} py={{ base: "6", md: "10" }} flex="1">
          <Outlet />
        </Container>
      )}
    </Flex>
  );
}
