import { LuRecycle } from "react-icons/lu";
import { NotBuiltYet } from "../../components/NotBuiltYet";

export default function RecycleBinPage() {
  return <NotBuiltYet page="recycleBin" icon={LuRecycle} compact />;
}
