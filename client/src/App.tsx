import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Route, Routes, useLocation, useSearchParams } from "react-router-dom";
import { lazyPage, type LazyPage } from "./components/lazyPage";
import { PageBoundary } from "./components/PageBoundary";
import { RequireAuth } from "./session/RequireAuth";

/* Every screen is its own chunk (§2: "every page loads on demand"); the first argument names it in a load error. */
const LoginPage = lazyPage("login", () => import("./pages/login/LoginPage"));
const SharedChatPage = lazyPage("sharedChat", () => import("./pages/chat/SharedChatPage"));
const SharedFlowPage = lazyPage("sharedFlow", () => import("./pages/flow/publish/SharedFlowPage"));
const DocumentViewerPage = lazyPage("document", () => import("./pages/document/DocumentViewerPage"));
const ForceGraphPage = lazyPage("force", () => import("./pages/force/ForceGraphPage"));
const DemoPage = lazyPage("demo", () => import("./pages/demo/DemoPage"));
const HomePage = lazyPage("home", () => import("./pages/home/HomePage"));
const NotFoundPage = lazyPage("notFound", () => import("./pages/not-found/NotFoundPage"));

const MainLayout = lazyPage("layout", () => import("./pages/layout/MainLayout"), { isLayout: true });
const KnowledgeListPage = lazyPage("knowledge", () => import("./pages/knowledge/KnowledgeListPage"));
const DatasetPage = lazyPage("dataset", () => import("./pages/knowledge/DatasetPage"));
const ChunkPage = lazyPage("chunk", () => import("./pages/knowledge/ChunkPage"));
const ConfigurationPage = lazyPage("configuration", () => import("./pages/knowledge/ConfigurationPage"));
const TestingPage = lazyPage("testing", () => import("./pages/knowledge/TestingPage"));
const ChatPage = lazyPage("chat", () => import("./pages/chat/ChatPage"));
const SettingsLayout = lazyPage("settings", () => import("./pages/user-setting/SettingsLayout"), { isLayout: true });
const ProfilePage = lazyPage("profile", () => import("./pages/user-setting/ProfilePage"));
const PasswordPage = lazyPage("password", () => import("./pages/user-setting/PasswordPage"));
const ModelPage = lazyPage("model", () => import("./pages/user-setting/ModelPage"));
const SystemModelsPage = lazyPage("system", () => import("./pages/user-setting/SystemModelsPage"));
const ApiPage = lazyPage("api", () => import("./pages/user-setting/ApiPage"));
const ContactPage = lazyPage("contact", () => import("./pages/user-setting/ContactPage"));
const FileManagerPage = lazyPage("file", () => import("./pages/file/FileManagerPage"));
const FlowListPage = lazyPage("flow", () => import("./pages/flow/FlowListPage"));
const FlowEditorPage = lazyPage("flowEditor", () => import("./pages/flow/FlowEditorPage"));
const SearchPage = lazyPage("search", () => import("./pages/search/SearchPage"));
const SearchMergePage = lazyPage("searchMerge", () => import("./pages/search/SearchMergePage"));
const MySpaceLayout = lazyPage("my", () => import("./pages/my/MySpaceLayout"), { isLayout: true });
const WorksPage = lazyPage("works", () => import("./pages/my/WorksPage"));
const RecycleBinPage = lazyPage("recycleBin", () => import("./pages/my/RecycleBinPage"));
const SlidePage = lazyPage("slide", () => import("./pages/my/SlidePage"));
const TeamPage = lazyPage("team", () => import("./pages/team/TeamPage"));

/** A lazily loaded screen with its own spinner and load-error boundary, which resets when the address changes. */
function Screen({ of: Page, minHeight }: { of: LazyPage; minHeight?: string }) {
  const { pathname } = useLocation();
  const { t } = useTranslation();
  const title = Page.isLayout ? null : t(`pages.${Page.page}.title`);
  useEffect(() => {
    if (title) document.title = `${title} · Cairn`;
  }, [title]);
  return (
    <PageBoundary resetKey={pathname} minHeight={minHeight}>
      <Page />
    </PageBoundary>
  );
}

/** The share page of §6: an assistant's, or with RAGFlow's `from=agent` a flow's (the one page other sites may frame). */
function SharePage() {
  const [params] = useSearchParams();
  return <Screen of={params.get("from") === "agent" ? SharedFlowPage : SharedChatPage} minHeight="100dvh" />;
}

/** The route table of §2. Redirects drop the query string, as the specification says. */
export function App() {
  return (
    <Routes>
      <Route path="/login" element={<Screen of={LoginPage} minHeight="100dvh" />} />
      <Route path="/login-next" element={<Screen of={LoginPage} minHeight="100dvh" />} />
      <Route path="/chat/share" element={<SharePage />} />
      <Route path="/document/:id" element={<Screen of={DocumentViewerPage} minHeight="100dvh" />} />
      <Route path="/force" element={<Screen of={ForceGraphPage} minHeight="100dvh" />} />
      <Route path="/demo" element={<Screen of={DemoPage} minHeight="100dvh" />} />
      <Route path="/home" element={<Screen of={HomePage} minHeight="100dvh" />} />

      <Route
        element={
          <RequireAuth>
            <Screen of={MainLayout} minHeight="100dvh" />
          </RequireAuth>
        }
      >
        <Route index element={<Navigate to="/my" replace />} />
        <Route path="knowledge">
          <Route index element={<Screen of={KnowledgeListPage} />} />
          <Route path="dataset" element={<Screen of={DatasetPage} />} />
          <Route path="dataset/chunk" element={<Screen of={ChunkPage} />} />
          <Route path="configuration" element={<Screen of={ConfigurationPage} />} />
          <Route path="testing" element={<Screen of={TestingPage} />} />
        </Route>
        <Route path="chat" element={<Screen of={ChatPage} />} />
        <Route path="user-setting" element={<Screen of={SettingsLayout} />}>
          <Route index element={<Navigate to="/user-setting/profile" replace />} />
          <Route path="profile" element={<Screen of={ProfilePage} />} />
          <Route path="password" element={<Screen of={PasswordPage} />} />
          <Route path="model" element={<Screen of={ModelPage} />} />
          <Route path="system" element={<Screen of={SystemModelsPage} />} />
          <Route path="api" element={<Screen of={ApiPage} />} />
          {/* Settings → Team is the team page itself: one screen, at /team. */}
          <Route path="team" element={<Navigate to="/team" replace />} />
          <Route path="contact" element={<Screen of={ContactPage} />} />
        </Route>
        <Route path="file" element={<Screen of={FileManagerPage} />} />
        <Route path="flow" element={<Screen of={FlowListPage} />} />
        <Route path="flow/:id" element={<Screen of={FlowEditorPage} />} />
        <Route path="search" element={<Screen of={SearchPage} />} />
        <Route path="search/merge" element={<Screen of={SearchMergePage} />} />
        <Route path="my/set-up" element={<Navigate to="/user-setting/profile" replace />} />
        <Route path="my" element={<Screen of={MySpaceLayout} />}>
          <Route index element={<Screen of={WorksPage} />} />
          <Route path="recycle-bin" element={<Screen of={RecycleBinPage} />} />
          <Route path="slide" element={<Screen of={SlidePage} />} />
        </Route>
        <Route path="team" element={<Screen of={TeamPage} />} />
      </Route>

      <Route path="*" element={<Screen of={NotFoundPage} minHeight="100dvh" />} />
    </Routes>
  );
}
