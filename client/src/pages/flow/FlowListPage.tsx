import { LuWorkflow } from "react-icons/lu";
import { ComingSoonPage } from "../../components/ComingSoonPage";

export default function FlowListPage() {
  return <ComingSoonPage page="flow" icon={LuWorkflow} />;
}
