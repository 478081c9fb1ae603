import { LuNetwork } from "react-icons/lu";
import { NotBuiltYet } from "../../components/NotBuiltYet";
import { PublicShell } from "../../components/PublicShell";

export default function ForceGraphPage() {
  return (
    <PublicShell>
      <NotBuiltYet page="force" icon={LuNetwork} />
    </PublicShell>
  );
}
