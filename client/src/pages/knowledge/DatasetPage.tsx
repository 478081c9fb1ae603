import { LuFileText } from "react-icons/lu";
import { ComingSoonPage } from "../../components/ComingSoonPage";

export default function DatasetPage() {
  return <ComingSoonPage page="dataset" icon={LuFileText} />;
}
