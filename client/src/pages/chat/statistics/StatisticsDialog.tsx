import { Box, Button, Center, CloseButton, Dialog, Flex, HStack, Input, Portal, SimpleGrid, Spinner, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { describeError, fieldProblemsOf, problemText } from "../../../errors";
import { useFormatters } from "../../../format";
import { ChatStatisticsDocument, type ChatStatisticsQuery } from "../../../graphql/gql/graphql";

type Statistics = ChatStatisticsQuery["chatStatistics"];
type Series = "messages" | "activeUsers" | "tokenOutputSpeed" | "tokensConsumed" | "sessionRounds" | "satisfaction";
const SERIES: Series[] = ["messages", "activeUsers", "tokenOutputSpeed", "tokensConsumed", "sessionRounds", "satisfaction"];
const RANGES = [7, 30, 90];

const day = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;

function lastDays(count: number): { from: string; to: string } {
  const to = new Date();
  const from = new Date();
  from.setDate(to.getDate() - (count - 1));
  return { from: day(from), to: day(to) };
}

function SeriesCard({ series, statistics }: { series: Series; statistics: Statistics }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const gradient = useId().replace(/:/g, "");
  const show = (value: number) => (series === "satisfaction" ? `${format.number(Math.round(value * 1000) / 10, 1)}%` : format.number(value));
  const points = statistics[series];
  return (
    <Stack gap="2" bg="bg.panel" borderWidth="1px" rounded="l3" p="4" data-testid="statistics-series" data-series={series}>
      <Text fontSize="sm" color="fg.muted">
        {t(`chat.statistics.series.${series}`)}
      </Text>
      <Flex align="baseline" gap="2" minWidth="0">
        <Text fontSize="2xl" fontWeight="semibold" letterSpacing="-0.01em" data-testid="statistics-total">
          {show(statistics.totals[series])}
        </Text>
        <Text fontSize="xs" color="fg.subtle" truncate>
          {t(`chat.statistics.units.${series}`)}
        </Text>
      </Flex>
      <Box height="28" mx="-2" css={{ "& .recharts-cartesian-axis-tick-value": { fill: "var(--chakra-colors-fg-subtle)", fontSize: "10px" } }}>
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
            <defs>
              <linearGradient id={gradient} x1="0" y1="0" x2="0" y2="1">
                <stop offset="0%" stopColor="var(--chakra-colors-brand-solid)" stopOpacity={0.35} />
                <stop offset="100%" stopColor="var(--chakra-colors-brand-solid)" stopOpacity={0} />
              </linearGradient>
            </defs>
            <CartesianGrid vertical={false} stroke="var(--chakra-colors-border-muted)" />
            <XAxis dataKey="date" tickFormatter={(value: string) => value.slice(5)} tickLine={false} axisLine={false} minTickGap={16} />
            <YAxis width={36} domain={series === "satisfaction" ? [0, 1] : [0, "auto"]} tickLine={false} axisLine={false} allowDecimals={series !== "messages" && series !== "activeUsers"} tickFormatter={(value: number) => (series === "satisfaction" ? `${Math.round(value * 100)}%` : format.number(value, 1))} />
            <Tooltip
              formatter={(value) => [show(Number(value)), t(`chat.statistics.series.${series}`)]}
              contentStyle={{ background: "var(--chakra-colors-bg-panel)", border: "1px solid var(--chakra-colors-border)", borderRadius: 8, fontSize: 12 }}
              labelStyle={{ color: "var(--chakra-colors-fg-muted)" }}
            />
            <Area type="monotone" dataKey="value" stroke="var(--chakra-colors-brand-solid)" strokeWidth={2} fill={`url(#${gradient})`} isAnimationActive={false} />
          </AreaChart>
        </ResponsiveContainer>
      </Box>
    </Stack>
  );
}

interface StatisticsDialogProps {
  /** One assistant, or null for all of them. */
  assistant: { id: string; name: string } | null;
  open: boolean;
  onClose: () => void;
}

/** The chat overview (§3): messages, active users, token output speed, tokens consumed, session rounds and satisfaction per day. */
export default function StatisticsDialog({ assistant, open, onClose }: StatisticsDialogProps) {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState(() => lastDays(7));
  const { data, previousData, loading, error } = useQuery(ChatStatisticsDocument, {
    // The range is picked in the viewer's days (lastDays), so the points are counted in their time zone too.
    variables: { assistantId: assistant?.id ?? null, from: range.from, to: range.to, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone },
    skip: !open || !range.from || !range.to,
    fetchPolicy: "network-only",
  });
  const statistics = (data ?? previousData)?.chatStatistics;
  const problems = fieldProblemsOf(error);
  const rangeProblem = problemText(i18n, problems.to ?? problems.from);

  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && onClose()} placement="center" size="xl" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="statistics-dialog">
            <Dialog.Header>
              <Stack gap="0.5">
                <Dialog.Title>{t("chat.statistics.title")}</Dialog.Title>
                <Text fontSize="sm" color="fg.muted">
                  {assistant ? assistant.name : t("chat.statistics.allAssistants")}
                </Text>
              </Stack>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Flex gap="3" wrap="wrap" align="center" justify="space-between">
                  <HStack gap="2">
                    <Input type="date" size="sm" width="40" value={range.from} max={range.to} onChange={(event) => setRange((current) => ({ ...current, from: event.target.value }))} aria-label={t("chat.statistics.from")} data-testid="statistics-from" />
                    <Text color="fg.muted">–</Text>
                    <Input type="date" size="sm" width="40" value={range.to} min={range.from} onChange={(event) => setRange((current) => ({ ...current, to: event.target.value }))} aria-label={t("chat.statistics.to")} data-testid="statistics-to" />
                    {loading && <Spinner size="sm" color="brand.solid" />}
                  </HStack>
                  <HStack gap="1">
                    {RANGES.map((days) => (
                      <Button key={days} size="xs" variant="outline" onClick={() => setRange(lastDays(days))}>
                        {t("chat.statistics.lastDays", { count: days })}
                      </Button>
                    ))}
                  </HStack>
                </Flex>
                {rangeProblem ? (
                  <Text color="fg.error" fontSize="sm" role="alert">
                    {rangeProblem}
                  </Text>
                ) : error && !statistics ? (
                  <Text color="fg.error" fontSize="sm" role="alert">
                    {describeError(error, i18n)}
                  </Text>
                ) : null}
                {statistics ? (
                  <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="4" opacity={loading ? 0.6 : 1} transition="opacity 0.15s">
                    {SERIES.map((series) => (
                      <SeriesCard key={series} series={series} statistics={statistics} />
                    ))}
                  </SimpleGrid>
                ) : (
                  !error && (
                    <Center py="16">
                      <Spinner color="brand.solid" />
                    </Center>
                  )
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t("common.close")} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
