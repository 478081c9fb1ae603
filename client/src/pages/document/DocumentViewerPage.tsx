import { LuFileText } from "react-icons/lu";
import { NotBuiltYet } from "../../components/NotBuiltYet";
import { PublicShell } from "../../components/PublicShell";

export default function DocumentViewerPage() {
  return (
    <PublicShell>
      <NotBuiltYet page="document" icon={LuFileText} />
    </PublicShell>
  );
}
