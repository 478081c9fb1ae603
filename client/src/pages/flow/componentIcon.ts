import type { IconType } from "react-icons";
import { BsBing } from "react-icons/bs";
import {
  LuBot, LuBrain, LuBug, LuChartCandlestick, LuChartLine, LuCloudSun, LuCodeXml, LuDatabase, LuDatabaseZap, LuGitMerge, LuGlobe, LuHouse, LuKey,
  LuLayoutTemplate, LuMessageSquareReply, LuMessagesSquare, LuNewspaper, LuPencilLine, LuPuzzle, LuRepeat, LuScale, LuSearch, LuSplit, LuStickyNote,
  LuTrendingUp, LuZap,
} from "react-icons/lu";
import { SiArxiv, SiBaidu, SiDeepl, SiDuckduckgo, SiGithub, SiGoogle, SiGooglescholar, SiPubmed, SiWikipedia } from "react-icons/si";

/**
 * The icons the component registry names (its `icon`, a react-icons name), imported one by one so that the bundle
 * holds only these. A name not listed here (a component added on the server first) shows a puzzle piece.
 */
const ICONS: Record<string, IconType> = {
  BsBing, LuBot, LuBrain, LuBug, LuChartCandlestick, LuChartLine, LuCloudSun, LuCodeXml, LuDatabase, LuDatabaseZap, LuGitMerge, LuGlobe, LuHouse, LuKey,
  LuLayoutTemplate, LuMessageSquareReply, LuMessagesSquare, LuNewspaper, LuPencilLine, LuRepeat, LuScale, LuSearch, LuSplit, LuStickyNote, LuTrendingUp,
  LuZap, SiArxiv, SiBaidu, SiDeepl, SiDuckduckgo, SiGithub, SiGoogle, SiGooglescholar, SiPubmed, SiWikipedia,
};

export function componentIcon(name: string): IconType {
  return ICONS[name] ?? LuPuzzle;
}

/** A colour palette per category, so that a flow reads at a glance (the palette and the canvas agree). */
export const CATEGORY_COLORS: Record<string, string> = {
  core: "blue",
  knowledge: "green",
  tools: "orange",
  search: "purple",
  data: "teal",
  translation: "pink",
};
