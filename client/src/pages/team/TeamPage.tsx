import { LuUsers } from "react-icons/lu";
import { ComingSoonPage } from "../../components/ComingSoonPage";

export default function TeamPage() {
  return <ComingSoonPage page="team" icon={LuUsers} />;
}
