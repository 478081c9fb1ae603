import { Box, Flex, HStack, IconButton, LinkBox, LinkOverlay, Menu, Portal, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuClock, LuEllipsis, LuExternalLink, LuPencil, LuShare2, LuTrash2, LuUserRoundX, LuUsers } from "react-icons/lu";
import { Link as RouterLink, useNavigate } from "react-router-dom";
import { useFormatters } from "../../../format";
import type { WorkCardFragment } from "../../../graphql/gql/graphql";
import { useCurrentUser } from "../../../session/useCurrentUser";
import { TeamBadge, useCountsText, WorkKindIcon } from "./workVisuals";
import { workPath } from "./workLogic";

export type WorkAction = "rename" | "share" | "delete";

interface WorkItemProps {
  work: WorkCardFragment;
  onAction: (action: WorkAction, work: WorkCardFragment) => void;
}

/** Its last activity as "3 hours ago", with the full date on hover. */
function ActivityTime({ work }: { work: WorkCardFragment }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  return (
    <HStack gap="1" fontSize="xs" color="fg.muted" title={format.dateTime(work.activityAt)} flexShrink={0} data-testid="work-activity">
      <LuClock /> {t("works.active", { time: format.relativeTime(work.activityAt) })}
    </HStack>
  );
}

function WorkName({ work }: { work: WorkCardFragment }) {
  return (
    <LinkOverlay asChild>
      <RouterLink to={workPath(work)}>
        <Text fontWeight="semibold" lineClamp={1} title={work.name} data-testid="work-name">
          {work.name}
        </Text>
      </RouterLink>
    </LinkOverlay>
  );
}

/** The kind, then its numbers, then its maker's description: one line that says what it is. */
function Summary({ work, lines }: { work: WorkCardFragment; lines: number }) {
  const { t } = useTranslation();
  const counts = useCountsText()(work);
  const kind = t(work.kind === "file" && work.variant === "folder" ? "works.kind.folder" : `works.kind.${work.kind}`);
  return (
    <Text fontSize="sm" color="fg.muted" lineClamp={lines} data-testid="work-summary">
      {[kind, counts, work.description].filter(Boolean).join(" · ")}
    </Text>
  );
}

/** A work in the grid: its kind's picture, name, summary, last activity, team badge and quick actions. */
export function WorkCard({ work, onAction }: WorkItemProps) {
  return (
    <LinkBox
      as="article"
      rounded="l3"
      borderWidth="1px"
      bg="bg.panel"
      p="4"
      transition="border-color 0.15s, box-shadow 0.15s"
      _hover={{ borderColor: "border.emphasized", shadow: "sm" }}
      data-testid="work-item"
      data-kind={work.kind}
      data-name={work.name}
    >
      <Stack gap="3" height="full">
        <Flex justify="space-between" align="flex-start" gap="2">
          <WorkKindIcon work={work} />
          <HStack gap="1">
            {work.teamShared && <TeamBadge />}
            <WorkMenu work={work} onAction={onAction} />
          </HStack>
        </Flex>
        <Stack gap="1" flex="1" minWidth="0">
          <WorkName work={work} />
          <Summary work={work} lines={2} />
        </Stack>
        <ActivityTime work={work} />
      </Stack>
    </LinkBox>
  );
}

/** A work in the list: the same, on one line. */
export function WorkRow({ work, onAction }: WorkItemProps) {
  return (
    <LinkBox
      as="article"
      px="4"
      py="3"
      bg="bg.panel"
      transition="background 0.15s"
      _hover={{ bg: "bg.subtle" }}
      data-testid="work-item"
      data-kind={work.kind}
      data-name={work.name}
    >
      <HStack gap="3.5" minWidth="0">
        <WorkKindIcon work={work} size="9" />
        <Box flex="1" minWidth="0">
          <WorkName work={work} />
          <Summary work={work} lines={1} />
        </Box>
        {work.teamShared && <TeamBadge />}
        <ActivityTime work={work} />
        <WorkMenu work={work} onAction={onAction} />
      </HStack>
    </LinkBox>
  );
}

/** The ⋯ menu: open, and what the user may do with this work (the server says which). */
function WorkMenu({ work, onAction }: WorkItemProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const teamToggle = work.kind === "knowledgeBase" || work.kind === "flow";
  return (
    <Menu.Root positioning={{ placement: "bottom-end" }}>
      <Menu.Trigger asChild>
        <IconButton variant="ghost" size="sm" aria-label={t("works.actions", { name: work.name })} position="relative" zIndex="1" data-testid="work-menu">
          <LuEllipsis />
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minWidth="48">
            <Menu.Item value="open" onSelect={() => navigate(workPath(work))} data-testid="work-open">
              <LuExternalLink /> {t("works.open")}
            </Menu.Item>
            {work.can.rename && (
              <Menu.Item value="rename" onSelect={() => onAction("rename", work)} data-testid="work-rename">
                <LuPencil /> {t("works.rename")}
              </Menu.Item>
            )}
            {work.can.share && (
              <Menu.Item value="share" onSelect={() => onAction("share", work)} data-testid="work-share">
                {teamToggle ? work.teamShared ? <LuUserRoundX /> : <LuUsers /> : <LuShare2 />}
                {teamToggle ? (work.teamShared ? t("works.unshareTeam") : t("works.shareTeam")) : t("works.shareLink")}
              </Menu.Item>
            )}
            {work.can.delete && (
              <>
                <Menu.Separator />
                <Menu.Item value="delete" color="fg.error" _hover={{ bg: "bg.error", color: "fg.error" }} onSelect={() => onAction("delete", work)} data-testid="work-delete">
                  <LuTrash2 /> {t("common.delete")}
                </Menu.Item>
              </>
            )}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
