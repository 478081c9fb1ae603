import { LuLayoutGrid } from "react-icons/lu";
import { NotBuiltYet } from "../../components/NotBuiltYet";

export default function WorksPage() {
  return <NotBuiltYet page="works" icon={LuLayoutGrid} compact />;
}
