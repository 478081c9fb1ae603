import { Box, Heading, HStack, Icon, LinkBox, LinkOverlay, SimpleGrid, Stack, Tabs, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import type { IconType } from "react-icons";
import { LuArrowRight, LuLibrary, LuMessagesSquare, LuWorkflow } from "react-icons/lu";
import { Link, Outlet, useLocation, useNavigate } from "react-router-dom";
import { useCurrentUser } from "../../session/useCurrentUser";

const TABS = [
  { value: "works", path: "/my" },
  { value: "slide", path: "/my/slide" },
  { value: "recycleBin", path: "/my/recycle-bin" },
] as const;

const FIRST_STEPS: { step: string; path: string; icon: IconType }[] = [
  { step: "knowledge", path: "/knowledge", icon: LuLibrary },
  { step: "chat", path: "/chat", icon: LuMessagesSquare },
  { step: "flow", path: "/flow", icon: LuWorkflow },
];

/** /my, the signed-in home: a greeting, the way into the product, and the user's works. */
export default function MySpaceLayout() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const activeTab = TABS.find((tab) => tab.path !== "/my" && pathname.startsWith(tab.path))?.value ?? "works";

  return (
    <Stack gap="10">
      <Stack gap="2">
        <Text fontSize="sm" fontWeight="semibold" color="brand.fg">
          {t("pages.my.title")}
        </Text>
        <Heading as="h1" size="3xl" letterSpacing="-0.02em">
          {t("my.greeting", { name: user?.nickname ?? "" })}
        </Heading>
        <Text color="fg.muted" maxWidth="2xl">
          {t("my.intro")}
        </Text>
      </Stack>

      <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
        {FIRST_STEPS.map((item, index) => (
          <LinkBox
            key={item.step}
            as="article"
            p="5"
            rounded="l3"
            borderWidth="1px"
            bg="bg.panel"
            transition="border-color 0.15s, transform 0.15s"
            _hover={{ borderColor: "brand.emphasized", transform: "translateY(-1px)" }}
          >
            <HStack justify="space-between" mb="4">
              <Box rounded="l2" bg="brand.subtle" color="brand.fg" p="2">
                <Icon as={item.icon} boxSize="5" />
              </Box>
              <Text fontSize="xs" color="fg.subtle" fontWeight="semibold">
                {t("my.step", { number: index + 1 })}
              </Text>
            </HStack>
            <LinkOverlay asChild>
              <Link to={item.path}>
                <Text fontWeight="semibold">{t(`my.steps.${item.step}.title`)}</Text>
              </Link>
            </LinkOverlay>
            <Text fontSize="sm" color="fg.muted" mt="1">
              {t(`my.steps.${item.step}.description`)}
            </Text>
            <HStack mt="4" gap="1" fontSize="sm" color="brand.fg" fontWeight="medium">
              <Text>{t("my.open")}</Text>
              <LuArrowRight />
            </HStack>
          </LinkBox>
        ))}
      </SimpleGrid>

      <Stack gap="5">
        <Tabs.Root value={activeTab} onValueChange={(event) => navigate(TABS.find((tab) => tab.value === event.value)?.path ?? "/my")} variant="line" colorPalette="brand">
          <Tabs.List>
            {TABS.map((tab) => (
              <Tabs.Trigger key={tab.value} value={tab.value}>
                {t(`pages.${tab.value}.title`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Tabs.Root>
        <Outlet />
      </Stack>
    </Stack>
  );
}
