import { TeamOverview } from "../../components/team/TeamOverview";

/** Settings → Team: the same team screen as /team, beside the other settings. */
export default function TeamSettingsPage() {
  return <TeamOverview />;
}
