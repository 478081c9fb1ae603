import { LuFolderOpen } from "react-icons/lu";
import { ComingSoonPage } from "../../components/ComingSoonPage";

export default function FileManagerPage() {
  return <ComingSoonPage page="file" icon={LuFolderOpen} />;
}
