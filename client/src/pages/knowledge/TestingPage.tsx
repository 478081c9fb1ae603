import { LuFlaskConical } from "react-icons/lu";
import { ComingSoonPage } from "../../components/ComingSoonPage";

export default function TestingPage() {
  return <ComingSoonPage page="testing" icon={LuFlaskConical} />;
}
