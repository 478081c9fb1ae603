import { LuMail } from "react-icons/lu";
import { NotBuiltYet } from "../../components/NotBuiltYet";

export default function ContactPage() {
  return <NotBuiltYet page="contact" icon={LuMail} compact />;
}
