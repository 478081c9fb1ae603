import { LuFlaskConical } from "react-icons/lu";
import { NotBuiltYet } from "../../components/NotBuiltYet";
import { SectionHeading } from "./SectionHeading";
import { KnowledgeBaseLayout } from "./KnowledgeBaseLayout";

export default function TestingPage() {
  return (
    <KnowledgeBaseLayout section="testing">
      {() => (
        <>
          <SectionHeading page="testing" />
          <NotBuiltYet page="testing" icon={LuFlaskConical} compact />
        </>
      )}
    </KnowledgeBaseLayout>
  );
}
