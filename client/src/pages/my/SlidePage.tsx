import { LuPresentation } from "react-icons/lu";
import { NotBuiltYet } from "../../components/NotBuiltYet";

export default function SlidePage() {
  return <NotBuiltYet page="slide" icon={LuPresentation} compact />;
}
