import { IconButton, Spinner } from "@chakra-ui/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuSquare, LuVolume2 } from "react-icons/lu";
import { notify } from "../../../components/toaster";
import { authStore } from "../../../session/authStore";
import { visitorHeaders } from "../../../session/visitorId";

type State = "idle" | "loading" | "playing";

/** Reads an answer aloud with the tenant's TTS model (`POST /v1/chat/tts`); a second press stops it. */
export function TtsButton({ messageId }: { messageId: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>("idle");
  const audio = useRef<HTMLAudioElement | null>(null);
  const url = useRef<string | null>(null);

  function release() {
    audio.current?.pause();
    audio.current = null;
    if (url.current) URL.revokeObjectURL(url.current);
    url.current = null;
  }
  useEffect(() => release, []);

  async function play() {
    if (state !== "idle") {
      release();
      setState("idle");
      return;
    }
    setState("loading");
    try {
      const credential = authStore.getCredential();
      const response = await fetch("/v1/chat/tts", {
        method: "POST",
        headers: { "Content-Type": "application/json", ...visitorHeaders(), ...(credential ? { Authorization: `Bearer ${credential}` } : {}) },
        body: JSON.stringify({ messageId }),
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { message?: string } | null;
        throw new Error(body?.message || t(`httpStatus.${response.status}`, { defaultValue: t("errors.requestError") }));
      }
      url.current = URL.createObjectURL(await response.blob());
      const player = new Audio(url.current);
      audio.current = player;
      player.onended = () => {
        release();
        setState("idle");
      };
      await player.play();
      setState("playing");
    } catch (error) {
      release();
      setState("idle");
      notify.error(error instanceof Error && error.message ? error.message : t("errors.networkAnomaly"));
    }
  }

  return (
    <IconButton size="xs" variant="ghost" aria-label={state === "idle" ? t("chat.answer.play") : t("chat.answer.stopPlaying")} title={state === "idle" ? t("chat.answer.play") : t("chat.answer.stopPlaying")} onClick={() => void play()} data-testid="answer-tts">
      {state === "loading" ? <Spinner size="xs" /> : state === "playing" ? <LuSquare /> : <LuVolume2 />}
    </IconButton>
  );
}
