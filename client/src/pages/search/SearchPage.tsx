import { LuSearch } from "react-icons/lu";
import { ComingSoonPage } from "../../components/ComingSoonPage";

export default function SearchPage() {
  return <ComingSoonPage page="search" icon={LuSearch} />;
}
