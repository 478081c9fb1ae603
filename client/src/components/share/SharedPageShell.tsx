import { Box, Button, Center, Flex, HStack, Spinner, Stack, Text } from "@chakra-ui/react";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LuMessageSquareOff, LuPlus } from "react-icons/lu";
import { useSearchParams } from "react-router-dom";
import { describeError } from "../../errors";
import { isLanguage, toInterfaceLanguage } from "../../languages";
import { LanguageMenu } from "../LanguageMenu";
import { ThemeMenu } from "../ThemeMenu";

/** What the page of a shared thing (an assistant, a flow) is showing. */
export type SharedPageState = { kind: "loading" } | { kind: "unavailable"; error: unknown } | { kind: "ready" };

interface SharedPageShellProps {
  /** The page's data-testid. */
  testId: string;
  /** The shared thing's name: in the header and the browser's title. */
  title: string | undefined;
  titleTestId: string;
  /** Its avatar at the header's size. */
  avatar: ((size: "sm" | "md") => ReactNode) | null;
  /** "New conversation"; none before the thing is there. */
  newConversation: { onClick: () => void; disabled: boolean; testId: string } | null;
  state: SharedPageState;
  /** What the page says when the shared id names nothing (or nothing it may show), and its data-testid. */
  unavailable: { text: string; testId: string };
  /** The conversation, once the thing is there. */
  children: ReactNode;
}

/**
 * The page a visitor, signed out, reaches by a shared id (a shared chat, a shared flow): a header with the shared
 * thing's name, "New conversation", and the language and theme menus; the conversation below it, or why there is
 * none. `embed=widget` is the floating widget's compact look (no menus), and `locale` the language it opens in.
 */
export function SharedPageShell({ testId, title, titleTestId, avatar, newConversation, state, unavailable, children }: SharedPageShellProps) {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const widget = params.get("embed") === "widget";
  const locale = params.get("locale");

  useEffect(() => {
    const language = locale ? toInterfaceLanguage(locale) : null;
    if (language && isLanguage(language) && language !== i18n.language) void i18n.changeLanguage(language);
  }, [locale, i18n]);

  useEffect(() => {
    if (title) document.title = title;
  }, [title]);

  return (
    <Flex direction="column" height="100dvh" bg="bg.canvas" data-testid={testId} data-embed={widget ? "widget" : undefined}>
      <Flex as="header" align="center" gap="3" px={widget ? "3" : { base: "4", md: "6" }} py={widget ? "2" : "3"} bg="bg.panel" borderBottomWidth="1px">
        {avatar?.(widget ? "sm" : "md")}
        <Text flex="1" minWidth="0" fontWeight="semibold" fontSize={widget ? "sm" : "md"} truncate data-testid={titleTestId}>
          {title ?? ""}
        </Text>
        <HStack gap="1">
          {newConversation && (
            <Button size="sm" variant="outline" onClick={newConversation.onClick} disabled={newConversation.disabled} data-testid={newConversation.testId}>
              <LuPlus /> <Text as="span" display={widget ? "none" : { base: "none", sm: "inline" }}>{t("chat.conversations.new")}</Text>
            </Button>
          )}
          {!widget && (
            <>
              <LanguageMenu />
              <ThemeMenu />
            </>
          )}
        </HStack>
      </Flex>
      <Box flex="1" minHeight="0">
        {state.kind === "loading" ? (
          <PageSpinner />
        ) : state.kind === "unavailable" ? (
          <Center height="full" flexDirection="column" gap="3" px="6" textAlign="center" role="alert" data-testid={unavailable.testId}>
            <Box rounded="full" bg="bg.muted" color="fg.muted" p="4">
              <LuMessageSquareOff size="28" />
            </Box>
            <Stack gap="1">
              <Text fontWeight="semibold">{unavailable.text}</Text>
              {state.error !== undefined && state.error !== null && (
                <Text fontSize="sm" color="fg.muted">
                  {describeError(state.error, i18n)}
                </Text>
              )}
            </Stack>
          </Center>
        ) : (
          children
        )}
      </Box>
    </Flex>
  );
}

/** The shared page's body while something it needs is on its way. */
export function PageSpinner() {
  return (
    <Center height="full">
      <Spinner color="brand.solid" />
    </Center>
  );
}

/** The state of a shared page from its query: loading until the first answer, unavailable without the thing. */
export function sharedPageState(query: { loading: boolean; data?: unknown; error?: unknown }, found: boolean): SharedPageState {
  if (query.loading && !query.data) return { kind: "loading" };
  return found ? { kind: "ready" } : { kind: "unavailable", error: query.error };
}
