import { LuLibrary } from "react-icons/lu";
import { ComingSoonPage } from "../../components/ComingSoonPage";

export default function KnowledgeListPage() {
  return <ComingSoonPage page="knowledge" icon={LuLibrary} />;
}
