import { Heading, Stack, Tabs, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation, useNavigate } from "react-router-dom";
import { useCurrentUser } from "../../session/useCurrentUser";
import { MyNextStep } from "./overview/MyNextStep";

const TABS = [
  { value: "works", path: "/my" },
  { value: "slide", path: "/my/slide" },
  { value: "recycleBin", path: "/my/recycle-bin" },
] as const;

/**
 * /my, the signed-in home: a greeting, then on the works tab the one next step and everything the user made (each
 * work listed once, in the works); the slides and the recycle bin share the greeting and the tabs.
 */
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

      {activeTab === "works" && <MyNextStep />}

      <Stack gap="5">
        <Tabs.Root value={activeTab} onValueChange={(event) => navigate(TABS.find((tab) => tab.value === event.value)?.path ?? "/my")} variant="line" colorPalette="brand">
          <Tabs.List>
            {TABS.map((tab) => (
              <Tabs.Trigger key={tab.value} value={tab.value} data-testid={`my-tab-${tab.value}`}>
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
