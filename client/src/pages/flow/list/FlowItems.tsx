import { Badge, Box, Flex, HStack, LinkBox, LinkOverlay, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuClock, LuPlay, LuUsers } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { useFormatters } from "../../../format";
import type { FlowCardFragment } from "../../../graphql/gql/graphql";
import { useCurrentUser } from "../../../session/useCurrentUser";
import { FlowMenu, type FlowAction } from "./FlowMenu";
import { FlowThumbnail } from "../../../components/flow-thumbnail/FlowThumbnail";

interface FlowItemProps {
  flow: FlowCardFragment;
  onAction: (action: FlowAction, flow: FlowCardFragment) => void;
}

/** When it was last saved and last run, as "3 hours ago" with the full date on hover. */
function FlowTimes({ flow }: { flow: FlowCardFragment }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  return (
    <HStack gap="3" fontSize="xs" color="fg.muted" wrap="wrap">
      <HStack gap="1" title={format.dateTime(flow.updatedAt)} data-testid="flow-updated">
        <LuClock /> {t("flow.list.updated", { time: format.relativeTime(flow.updatedAt) })}
      </HStack>
      <HStack gap="1" title={flow.lastRunAt ? format.dateTime(flow.lastRunAt) : undefined} data-testid="flow-last-run">
        <LuPlay /> {flow.lastRunAt ? t("flow.list.lastRun", { time: format.relativeTime(flow.lastRunAt) }) : t("flow.list.neverRun")}
      </HStack>
    </HStack>
  );
}

function TeamBadge() {
  const { t } = useTranslation();
  return (
    <Badge variant="subtle" colorPalette="brand" size="sm" flexShrink={0} data-testid="flow-team-badge">
      <LuUsers /> {t("flow.list.team")}
    </Badge>
  );
}

function FlowTitle({ flow }: { flow: FlowCardFragment }) {
  return (
    <LinkOverlay asChild>
      <RouterLink to={`/flow/${flow.id}`}>
        <Text fontWeight="semibold" lineClamp={1} title={flow.title} data-testid="flow-card-title">
          {flow.title}
        </Text>
      </RouterLink>
    </LinkOverlay>
  );
}

function FlowDescription({ flow, lines }: { flow: FlowCardFragment; lines: number }) {
  const { t } = useTranslation();
  return (
    <Text fontSize="sm" color={flow.description ? "fg.muted" : "fg.subtle"} lineClamp={lines}>
      {flow.description || t("flow.list.noDescription")}
    </Text>
  );
}

const hover = { borderColor: "brand.emphasized", shadow: "sm" };

/** A flow in the grid: its picture, name, description and times. The whole card opens the editor. */
export function FlowCard({ flow, onAction }: FlowItemProps) {
  const user = useCurrentUser();
  return (
    <LinkBox as="article" bg="bg.panel" borderWidth="1px" rounded="l3" p="3" display="flex" flexDirection="column" gap="3" transition="border-color 0.15s, box-shadow 0.15s" _hover={hover} data-testid="flow-card" data-flow-id={flow.id}>
      <FlowThumbnail graph={flow.outline} height="32" />
      <Stack gap="1" px="1" flex="1" minWidth="0">
        <Flex gap="2" align="center" justify="space-between">
          <Box minWidth="0">
            <FlowTitle flow={flow} />
          </Box>
          <HStack gap="1" flexShrink={0}>
            {flow.permission === "team" && <TeamBadge />}
            <FlowMenu flow={flow} canShare={flow.createdBy === user?.id} onAction={onAction} />
          </HStack>
        </Flex>
        <FlowDescription flow={flow} lines={2} />
      </Stack>
      <Box px="1">
        <FlowTimes flow={flow} />
      </Box>
    </LinkBox>
  );
}

/** A flow in the list: one row with a small picture. */
export function FlowRow({ flow, onAction }: FlowItemProps) {
  const user = useCurrentUser();
  return (
    <LinkBox as="article" bg="bg.panel" borderWidth="1px" rounded="l3" p="2.5" display="flex" alignItems="center" gap="4" transition="border-color 0.15s, box-shadow 0.15s" _hover={hover} data-testid="flow-row" data-flow-id={flow.id}>
      <Box width="28">
        <FlowThumbnail graph={flow.outline} height="14" />
      </Box>
      <Stack gap="0.5" flex="1" minWidth="0">
        <HStack gap="2" minWidth="0">
          <Box minWidth="0">
            <FlowTitle flow={flow} />
          </Box>
          {flow.permission === "team" && <TeamBadge />}
        </HStack>
        <FlowDescription flow={flow} lines={1} />
      </Stack>
      <Box flexShrink={0} display={{ base: "none", md: "block" }}>
        <FlowTimes flow={flow} />
      </Box>
      <FlowMenu flow={flow} canShare={flow.createdBy === user?.id} onAction={onAction} />
    </LinkBox>
  );
}
