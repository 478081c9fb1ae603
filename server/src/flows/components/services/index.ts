import type { ComponentDefinition } from "../../component";
import { akShare } from "./akshare";
import { baiduFanyi } from "./baidu-fanyi";
import { deepL } from "./deepl";
import { jin10Component } from "./jin10";
import { qWeather } from "./qweather";
import { tuShare } from "./tushare";
import { wenCai } from "./wencai";
import { yahooFinance } from "./yahoo-finance";

/** The services components, in palette order (one import and one line each). */
export const SERVICES_COMPONENTS: readonly ComponentDefinition[] = [
  deepL,
  baiduFanyi,
  qWeather,
  wenCai,
  akShare,
  yahooFinance,
  jin10Component,
  tuShare,
];
