import { LuMerge } from "react-icons/lu";
import { ComingSoonPage } from "../../components/ComingSoonPage";

export default function SearchMergePage() {
  return <ComingSoonPage page="searchMerge" icon={LuMerge} />;
}
