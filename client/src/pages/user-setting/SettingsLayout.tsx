import { Box, Grid, Heading, Icon, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import type { IconType } from "react-icons";
import { LuArrowUpRight, LuCpu, LuKeyRound, LuLock, LuMail, LuServerCog, LuUser, LuUsers } from "react-icons/lu";
import { NavLink, Outlet, useLocation } from "react-router-dom";

interface SettingsSection {
  /** The path segment under /user-setting and the key under `pages.` in the message files. */
  page: string;
  icon: IconType;
  /** A section that is a page of its own outside the settings (the team page): the entry leads there. */
  to?: string;
}

const SECTIONS: SettingsSection[] = [
  { page: "profile", icon: LuUser },
  { page: "password", icon: LuLock },
  { page: "model", icon: LuCpu },
  { page: "system", icon: LuServerCog },
  { page: "api", icon: LuKeyRound },
  { page: "team", icon: LuUsers, to: "/team" },
  { page: "contact", icon: LuMail },
];

export default function SettingsLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const active = SECTIONS.find((section) => pathname.startsWith(`/user-setting/${section.page}`)) ?? SECTIONS[0];

  return (
    <Grid templateColumns={{ base: "minmax(0, 1fr)", md: "15rem minmax(0, 1fr)" }} gap={{ base: "6", md: "10" }} alignItems="start">
      <Stack as="nav" aria-label={t("pages.settings.title")} gap="1" position={{ md: "sticky" }} top={{ md: "24" }} minWidth="0">
        <Text px="3" pb="2" fontSize="xs" fontWeight="semibold" textTransform="uppercase" letterSpacing="0.06em" color="fg.subtle">
          {t("pages.settings.title")}
        </Text>
        <Stack direction={{ base: "row", md: "column" }} gap="1" overflowX={{ base: "auto", md: "visible" }} css={{ scrollbarWidth: "none" }}>
          {SECTIONS.map((section) => (
            <NavLink key={section.page} to={section.to ?? `/user-setting/${section.page}`} data-testid={`settings-nav-${section.page}`}>
              {({ isActive }) => (
                <Box
                  display="flex"
                  alignItems="center"
                  gap="3"
                  px="3"
                  py="2"
                  rounded="l2"
                  fontSize="sm"
                  fontWeight="medium"
                  whiteSpace="nowrap"
                  color={isActive ? "brand.fg" : "fg.muted"}
                  bg={isActive ? "brand.subtle" : "transparent"}
                  _hover={{ bg: isActive ? "brand.subtle" : "bg.muted", color: "fg" }}
                >
                  <Icon as={section.icon} boxSize="4" />
                  {t(`pages.${section.page}.title`)}
                  {section.to && <Icon as={LuArrowUpRight} boxSize="3.5" ms="auto" color="fg.subtle" aria-hidden />}
                </Box>
              )}
            </NavLink>
          ))}
        </Stack>
      </Stack>
      <Box minWidth="0">
        <Stack gap="1" mb="6">
          <Heading as="h1" size="xl" letterSpacing="-0.01em">
            {t(`pages.${active.page}.title`)}
          </Heading>
          <Text color="fg.muted">{t(`pages.${active.page}.summary`)}</Text>
        </Stack>
        <Outlet />
      </Box>
    </Grid>
  );
}
