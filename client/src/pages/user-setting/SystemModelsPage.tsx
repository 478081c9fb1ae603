import { LuServerCog } from "react-icons/lu";
import { NotBuiltYet } from "../../components/NotBuiltYet";

export default function SystemModelsPage() {
  return <NotBuiltYet page="system" icon={LuServerCog} compact />;
}
