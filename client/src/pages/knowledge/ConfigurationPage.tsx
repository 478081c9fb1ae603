import { LuSlidersHorizontal } from "react-icons/lu";
import { ComingSoonPage } from "../../components/ComingSoonPage";

export default function ConfigurationPage() {
  return <ComingSoonPage page="configuration" icon={LuSlidersHorizontal} />;
}
