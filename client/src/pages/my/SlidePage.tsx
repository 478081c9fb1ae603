import { Box, Center, Flex, HStack, IconButton, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuChevronLeft, LuChevronRight, LuMaximize, LuMinimize } from "react-icons/lu";
import { LoadFailed } from "../../components/LoadFailed";
import { WorkSlideDocument } from "../../graphql/gql/graphql";
import { slideAfterKey } from "./slide/slideKeys";
import { WorkSlide } from "./slide/WorkSlide";
import { WorkFilter } from "./works/WorkFilter";
import type { WorkFilter as Filter } from "./works/workLogic";

/**
 * Keys the focused element needs for itself, which the slides leave to it: all keys of a text field, the arrows of
 * the tabs and menus (they move between their items), Space on a button (it presses it).
 */
function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return true;
  if (["tab", "menuitem", "option", "radio"].includes(target.getAttribute("role") ?? "")) return true;
  return key === " " && target.tagName === "BUTTON";
}

/** /my/slide: the works one per slide, with the keyboard (← → Space Home End) and full screen (Esc leaves it). */
export default function SlidePage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>("all");
  const [index, setIndex] = useState(0);
  const [fullScreen, setFullScreen] = useState(false);
  const stage = useRef<HTMLDivElement>(null);
  // Slide n is page n of one work: its preview is read when it comes on screen, and kept for going back.
  const { data: current, previousData, error, refetch } = useQuery(WorkSlideDocument, { variables: { kind: filter === "all" ? null : filter, page: index + 1 } });
  const data = current ?? previousData;
  const count = data?.works.total ?? 0;
  const shown = Math.min(index, Math.max(0, count - 1));
  // while the next slide loads, the last one stays rather than a flash of a skeleton
  const work = data?.works.items[0];

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.altKey || event.ctrlKey || event.metaKey || ownsKey(event.target, event.key)) return;
      const next = slideAfterKey(event.key, event.shiftKey, shown, count);
      if (next === null) return;
      event.preventDefault(); // Space and the arrows would scroll the page
      setIndex(next);
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [shown, count]);

  // Coming from the tabs, the focus is on a tab, whose arrows are its own: the slides take it.
  useEffect(() => stage.current?.focus(), []);

  useEffect(() => {
    const onChange = () => setFullScreen(document.fullscreenElement === stage.current);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, []);

  function toggleFullScreen() {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void stage.current?.requestFullscreen();
  }

  let slide;
  if (error && !data) slide = <LoadFailed error={error} onRetry={() => void refetch()} />;
  else if (!data) slide = <Skeleton height="full" rounded="l3" data-testid="slides-loading" />;
  else if (count === 0)
    slide = (
      <Center height="full" color="fg.muted" data-testid="slides-empty">
        {t("slides.empty")}
      </Center>
    );
  else if (!work) slide = <Skeleton height="full" rounded="l3" data-testid="slides-loading" />;
  else slide = <WorkSlide key={`${work.kind}:${work.id}`} work={work} />;

  return (
    <Stack gap="4" data-testid="slides-page">
      <Flex gap="3" wrap="wrap" justify="space-between" align="center">
        <WorkFilter
          value={filter}
          onChange={(next) => {
            setFilter(next);
            setIndex(0);
          }}
        />
        <Text fontSize="sm" color="fg.muted">
          {t("slides.keys")}
        </Text>
      </Flex>
      <Stack ref={stage} tabIndex={-1} outline="none" gap="4" bg={fullScreen ? "bg" : undefined} p={fullScreen ? "10" : "0"} height={fullScreen ? "100vh" : "auto"} data-testid="slides-stage" data-full-screen={fullScreen || undefined}>
        <Box
          flex={fullScreen ? "1" : undefined}
          minHeight="0"
          height={fullScreen ? "auto" : "clamp(420px, 62vh, 760px)"}
          opacity={current ? 1 : 0.6}
          transition="opacity 0.15s"
          bg="bg.panel"
          borderWidth="1px"
          rounded="l3"
          p={{ base: "6", md: "10" }}
          shadow="sm"
        >
          {slide}
        </Box>
        <HStack justify="center" gap="3">
          <IconButton size="sm" variant="outline" aria-label={t("slides.previous")} disabled={shown <= 0} onClick={() => setIndex(shown - 1)} data-testid="slides-previous">
            <LuChevronLeft />
          </IconButton>
          <Text fontVariantNumeric="tabular-nums" minWidth="16" textAlign="center" data-testid="slides-counter">
            {count === 0 ? "0 / 0" : `${shown + 1} / ${count}`}
          </Text>
          <IconButton size="sm" variant="outline" aria-label={t("slides.next")} disabled={shown >= count - 1} onClick={() => setIndex(shown + 1)} data-testid="slides-next">
            <LuChevronRight />
          </IconButton>
          <IconButton size="sm" variant="ghost" aria-label={fullScreen ? t("slides.leaveFullScreen") : t("slides.fullScreen")} onClick={toggleFullScreen} data-testid="slides-full-screen">
            {fullScreen ? <LuMinimize /> : <LuMaximize />}
          </IconButton>
        </HStack>
      </Stack>
    </Stack>
  );
}
