import { LuCpu } from "react-icons/lu";
import { NotBuiltYet } from "../../components/NotBuiltYet";

export default function ModelPage() {
  return <NotBuiltYet page="model" icon={LuCpu} compact />;
}
