import { LuMessagesSquare } from "react-icons/lu";
import { ComingSoonPage } from "../../components/ComingSoonPage";

export default function ChatPage() {
  return <ComingSoonPage page="chat" icon={LuMessagesSquare} />;
}
