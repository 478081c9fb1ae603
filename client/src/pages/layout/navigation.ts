import type { IconType } from "react-icons";
import { LuFolderOpen, LuHouse, LuLibrary, LuMessagesSquare, LuSearch, LuWorkflow } from "react-icons/lu";

export interface NavigationItem {
  /** Key under `nav.` in the message files. */
  label: string;
  path: string;
  icon: IconType;
}

/**
 * §2's header navigation. "Home" leads to /my, the signed-in start page that / redirects to;
 * /home is the public page outside the guard, for visitors who have not signed in.
 */
export const HEADER_NAVIGATION: NavigationItem[] = [
  { label: "home", path: "/my", icon: LuHouse },
  { label: "knowledge", path: "/knowledge", icon: LuLibrary },
  { label: "chat", path: "/chat", icon: LuMessagesSquare },
  { label: "file", path: "/file", icon: LuFolderOpen },
  { label: "flow", path: "/flow", icon: LuWorkflow },
  { label: "search", path: "/search", icon: LuSearch },
];
