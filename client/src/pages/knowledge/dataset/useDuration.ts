import { useTranslation } from "react-i18next";
import { useFormatters } from "../../../format";

/** "12.3 s", "4 min 5 s". */
export function useDuration() {
  const { t } = useTranslation();
  const format = useFormatters();
  return (seconds: number) => {
    if (seconds < 60) return t("kb.dataset.seconds", { value: format.number(Math.round(seconds * 10) / 10, 1) });
    return t("kb.dataset.minutes", { minutes: format.number(Math.floor(seconds / 60)), seconds: format.number(Math.round(seconds % 60)) });
  };
}
