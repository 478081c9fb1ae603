import { LuLayers } from "react-icons/lu";
import { ComingSoonPage } from "../../components/ComingSoonPage";

export default function ChunkPage() {
  return <ComingSoonPage page="chunk" icon={LuLayers} />;
}
