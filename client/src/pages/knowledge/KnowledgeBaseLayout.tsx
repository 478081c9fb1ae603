import { Box, Button, Center, Grid, HStack, Icon, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { IconType } from "react-icons";
import { LuArrowLeft, LuFileText, LuFlaskConical, LuSettings2 } from "react-icons/lu";
import { Link as RouterLink, NavLink, useSearchParams } from "react-router-dom";
import { describeError } from "../../errors";
import { useFormatters } from "../../format";
import { KnowledgeBaseDocument, type KnowledgeBaseSettingsFragment } from "../../graphql/gql/graphql";
import { KnowledgeAvatar } from "../../components/KnowledgeAvatar";

export type KnowledgeSection = "dataset" | "testing" | "configuration";

const SECTIONS: { section: KnowledgeSection; icon: IconType }[] = [
  { section: "dataset", icon: LuFileText },
  { section: "testing", icon: LuFlaskConical },
  { section: "configuration", icon: LuSettings2 },
];

/** The knowledge base a sub-page is about travels in the address as `?id=` (§2's routes have no path parameter). */
export function useKnowledgeBaseId(): string {
  const [params] = useSearchParams();
  return params.get("id") ?? "";
}

function Unavailable({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <Center py="20" flexDirection="column" gap="4" textAlign="center" role="alert" data-testid="kb-unavailable">
      <Text color="fg.muted" maxWidth="md">
        {message}
      </Text>
      <Button asChild variant="outline" size="sm">
        <RouterLink to="/knowledge">
          <LuArrowLeft /> {t("kb.nav.back")}
        </RouterLink>
      </Button>
    </Center>
  );
}

interface KnowledgeBaseLayoutProps {
  section: KnowledgeSection;
  children: (kb: KnowledgeBaseSettingsFragment) => ReactNode;
}

/** The frame of one knowledge base: its photo, name and counts, the sub-navigation, then the section. */
export function KnowledgeBaseLayout({ section, children }: KnowledgeBaseLayoutProps) {
  const { t, i18n } = useTranslation();
  const id = useKnowledgeBaseId();
  const format = useFormatters();
  const { data, loading, error } = useQuery(KnowledgeBaseDocument, { variables: { id }, skip: !id });
  const kb = data?.knowledgeBase;

  if (!id) return <Unavailable message={t("errors.knowledge.notFound")} />;
  if (!kb && loading) {
    return (
      <Grid templateColumns={{ base: "minmax(0, 1fr)", lg: "13rem minmax(0, 1fr)" }} gap="10">
        <Skeleton height="48" rounded="l3" />
        <Skeleton height="96" rounded="l3" />
      </Grid>
    );
  }
  if (!kb) return <Unavailable message={error ? describeError(error, i18n) : t("errors.knowledge.notFound")} />;

  return (
    <Grid templateColumns={{ base: "minmax(0, 1fr)", lg: "13rem minmax(0, 1fr)" }} gap={{ base: "6", lg: "8" }} alignItems="start">
      <Stack gap="5" position={{ lg: "sticky" }} top={{ lg: "24" }} minWidth="0" data-testid="kb-sidebar">
        <Button asChild variant="ghost" size="xs" alignSelf="flex-start" color="fg.muted" px="2">
          <RouterLink to="/knowledge">
            <LuArrowLeft /> {t("kb.nav.back")}
          </RouterLink>
        </Button>
        <HStack gap="3" align="center" px="1" minWidth="0">
          <KnowledgeAvatar name={kb.name} avatar={kb.avatar} size="lg" />
          <Stack gap="0.5" minWidth="0">
            <Text fontWeight="semibold" lineClamp={2} title={kb.name} data-testid="kb-name">
              {kb.name}
            </Text>
            <Text fontSize="xs" color="fg.muted">
              {t("kb.list.documents", { count: kb.documentCount, formatted: format.number(kb.documentCount) })} ·{" "}
              {t("kb.list.chunks", { count: kb.chunkCount, formatted: format.number(kb.chunkCount) })}
            </Text>
          </Stack>
        </HStack>
        <Stack as="nav" aria-label={kb.name} direction={{ base: "row", lg: "column" }} gap="1" overflowX={{ base: "auto", lg: "visible" }}>
          {SECTIONS.map((item) => (
            <NavLink key={item.section} to={`/knowledge/${item.section}?id=${kb.id}`} data-testid={`kb-nav-${item.section}`}>
              {() => {
                const active = item.section === section;
                return (
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
                    color={active ? "brand.fg" : "fg.muted"}
                    bg={active ? "brand.subtle" : "transparent"}
                    _hover={{ bg: active ? "brand.subtle" : "bg.muted", color: "fg" }}
                    aria-current={active ? "page" : undefined}
                  >
                    <Icon as={item.icon} boxSize="4" />
                    {t(`kb.nav.${item.section}`)}
                  </Box>
                );
              }}
            </NavLink>
          ))}
        </Stack>
      </Stack>
      <Box minWidth="0">{children(kb)}</Box>
    </Grid>
  );
}
