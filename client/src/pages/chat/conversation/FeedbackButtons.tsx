import { Button, HStack, IconButton, Popover, Portal, Stack, Text, Textarea } from "@chakra-ui/react";
import { useMutation } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuThumbsDown, LuThumbsUp } from "react-icons/lu";
import { notify } from "../../../components/toaster";
import { describeError } from "../../../errors";
import { RateAnswerDocument } from "../../../graphql/gql/graphql";

/** Thumbs up or down on an answer; down asks for an optional comment. Pressing the chosen thumb again takes it back. */
export function FeedbackButtons({ messageId, thumb, comment }: { messageId: string; thumb: string | null | undefined; comment: string | null | undefined }) {
  const { t, i18n } = useTranslation();
  const [rate, { loading }] = useMutation(RateAnswerDocument);
  const [asking, setAsking] = useState(false);
  const [draft, setDraft] = useState(comment ?? "");

  async function send(next: string | null, text?: string) {
    try {
      await rate({ variables: { messageId, thumb: next, comment: text ?? null } });
      setAsking(false);
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  return (
    <HStack gap="0.5">
      <IconButton
        size="xs"
        variant="ghost"
        color={thumb === "up" ? "brand.fg" : undefined}
        bg={thumb === "up" ? "brand.subtle" : undefined}
        aria-label={t("chat.answer.thumbUp")}
        title={t("chat.answer.thumbUp")}
        aria-pressed={thumb === "up"}
        disabled={loading}
        onClick={() => void send(thumb === "up" ? null : "up")}
        data-testid="answer-thumb-up"
      >
        <LuThumbsUp />
      </IconButton>
      <Popover.Root open={asking} onOpenChange={(details) => setAsking(details.open)} positioning={{ placement: "bottom-start" }} lazyMount unmountOnExit>
        <Popover.Trigger asChild>
          <IconButton
            size="xs"
            variant="ghost"
            color={thumb === "down" ? "fg.error" : undefined}
            bg={thumb === "down" ? "bg.error" : undefined}
            aria-label={t("chat.answer.thumbDown")}
            title={t("chat.answer.thumbDown")}
            aria-pressed={thumb === "down"}
            disabled={loading}
            onClick={(event) => {
              if (thumb === "down") {
                event.preventDefault();
                void send(null);
              }
            }}
            data-testid="answer-thumb-down"
          >
            <LuThumbsDown />
          </IconButton>
        </Popover.Trigger>
        <Portal>
          <Popover.Positioner>
            <Popover.Content width="xs" data-testid="feedback-popover">
              <Popover.Body p="4">
                <Stack gap="3">
                  <Text fontSize="sm" fontWeight="medium">
                    {t("chat.answer.feedbackTitle")}
                  </Text>
                  <Textarea size="sm" rows={3} autoFocus placeholder={t("chat.answer.feedbackPlaceholder")} value={draft} onChange={(event) => setDraft(event.target.value)} data-testid="feedback-comment" />
                  <HStack justify="flex-end" gap="2">
                    <Button size="xs" variant="ghost" onClick={() => setAsking(false)}>
                      {t("common.cancel")}
                    </Button>
                    <Button size="xs" colorPalette="brand" loading={loading} onClick={() => void send("down", draft.trim() || undefined)} data-testid="feedback-submit">
                      {t("chat.answer.feedbackSubmit")}
                    </Button>
                  </HStack>
                </Stack>
              </Popover.Body>
            </Popover.Content>
          </Popover.Positioner>
        </Portal>
      </Popover.Root>
    </HStack>
  );
}
