import { LuWorkflow } from "react-icons/lu";
import { ComingSoonPage } from "../../components/ComingSoonPage";

export default function FlowEditorPage() {
  return <ComingSoonPage page="flowEditor" icon={LuWorkflow} />;
}
