import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/PageHeader";
import { TeamOverview } from "../../components/team/TeamOverview";

export default function TeamPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("pages.team.title")} description={t("pages.team.summary")} />
      <TeamOverview />
    </>
  );
}
