import type { IconType } from "react-icons";
import { useTranslation } from "react-i18next";
import { NotBuiltYet } from "./NotBuiltYet";
import { PageHeader } from "./PageHeader";

/** A whole screen of the main layout that a later release builds: its header and the honest empty state. */
export function ComingSoonPage({ page, icon }: { page: string; icon: IconType }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t(`pages.${page}.title`)} description={t(`pages.${page}.summary`)} />
      <NotBuiltYet page={page} icon={icon} />
    </>
  );
}
