import { LuSparkles } from "react-icons/lu";
import { NotBuiltYet } from "../../components/NotBuiltYet";
import { PublicShell } from "../../components/PublicShell";

export default function DemoPage() {
  return (
    <PublicShell>
      <NotBuiltYet page="demo" icon={LuSparkles} />
    </PublicShell>
  );
}
