import { LuShare2 } from "react-icons/lu";
import { NotBuiltYet } from "../../components/NotBuiltYet";
import { PublicShell } from "../../components/PublicShell";

export default function SharedChatPage() {
  return (
    <PublicShell>
      <NotBuiltYet page="sharedChat" icon={LuShare2} />
    </PublicShell>
  );
}
