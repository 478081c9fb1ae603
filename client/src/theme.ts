import { createSystem, defaultBaseConfig, defineConfig, mergeConfigs } from "@chakra-ui/react";
import {
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  collapsibleSlotRecipe,
  comboboxSlotRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dialogSlotRecipe,
  drawerSlotRecipe,
  fieldSlotRecipe,
  globalCss as chakraGlobalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  popoverSlotRecipe,
  progressSlotRecipe,
  segmentGroupSlotRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  sliderSlotRecipe,
  spinnerRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  tagSlotRecipe,
  textareaRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
} from "@chakra-ui/react/theme";
import { useSyncExternalStore } from "react";

/*
 * Chakra's full default theme carries the styles of all its ~70 components, a third of the first
 * download. Cairn registers only the recipes of the components it uses. A component whose recipe is
 * missing renders unstyled, so when a page starts using a new one, add its recipe below (in
 * development a warning names the missing recipe).
 */
const chakraFoundation = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss: chakraGlobalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens,
    semanticTokens,
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      checkmark: checkmarkRecipe,
      code: codeRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      inputAddon: inputAddonRecipe,
      link: linkRecipe,
      separator: separatorRecipe,
      skeleton: skeletonRecipe,
      spinner: spinnerRecipe,
      textarea: textareaRecipe,
    },
    slotRecipes: {
      alert: alertSlotRecipe,
      avatar: avatarSlotRecipe,
      checkbox: checkboxSlotRecipe,
      collapsible: collapsibleSlotRecipe,
      combobox: comboboxSlotRecipe,
      dialog: dialogSlotRecipe,
      drawer: drawerSlotRecipe,
      field: fieldSlotRecipe,
      menu: menuSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      popover: popoverSlotRecipe,
      progress: progressSlotRecipe,
      segmentGroup: segmentGroupSlotRecipe,
      slider: sliderSlotRecipe,
      switch: switchSlotRecipe,
      table: tableSlotRecipe,
      tabs: tabsSlotRecipe,
      tag: tagSlotRecipe,
      toast: toastSlotRecipe,
    },
  },
});

/* ---------- The look: Cairn's palette, surfaces and type ---------- */

const fontStack =
  'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "WenQuanYi Zen Hei", sans-serif';

const config = defineConfig({
  globalCss: {
    "html, body": {
      bg: "bg.canvas",
      color: "fg",
      fontFeatureSettings: '"cv11", "ss01"',
    },
    "#root": { minHeight: "100dvh" },
  },
  theme: {
    tokens: {
      fonts: {
        heading: { value: fontStack },
        body: { value: fontStack },
        mono: { value: 'ui-monospace, "JetBrains Mono", "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace' },
      },
      colors: {
        // A lake-water blue: the colour of the stones a cairn is built from, seen wet.
        brand: {
          50: { value: "#eef8fb" },
          100: { value: "#d5eef5" },
          200: { value: "#aee0ec" },
          300: { value: "#7ccbdd" },
          400: { value: "#45adc7" },
          500: { value: "#2791ad" },
          600: { value: "#1f7591" },
          700: { value: "#1e5f76" },
          800: { value: "#1f4f62" },
          900: { value: "#1e4253" },
          950: { value: "#0f2a37" },
        },
        stone: {
          50: { value: "#f7f6f3" },
          100: { value: "#edeae3" },
          200: { value: "#dcd6ca" },
          300: { value: "#c4bba9" },
          400: { value: "#a89c85" },
          500: { value: "#8f826a" },
          600: { value: "#756a56" },
          700: { value: "#5e5546" },
          800: { value: "#4b443a" },
          900: { value: "#3b362f" },
          950: { value: "#221f1b" },
        },
      },
      radii: {
        l1: { value: "0.3rem" },
        l2: { value: "0.5rem" },
        l3: { value: "0.75rem" },
      },
    },
    semanticTokens: {
      colors: {
        brand: {
          solid: { value: { _light: "{colors.brand.600}", _dark: "{colors.brand.500}" } },
          contrast: { value: "white" },
          fg: { value: { _light: "{colors.brand.700}", _dark: "{colors.brand.300}" } },
          muted: { value: { _light: "{colors.brand.100}", _dark: "{colors.brand.900}" } },
          subtle: { value: { _light: "{colors.brand.50}", _dark: "{colors.brand.950}" } },
          emphasized: { value: { _light: "{colors.brand.200}", _dark: "{colors.brand.800}" } },
          focusRing: { value: { _light: "{colors.brand.500}", _dark: "{colors.brand.400}" } },
        },
        bg: {
          DEFAULT: { value: { _light: "white", _dark: "#12171e" } },
          canvas: { value: { _light: "#f6f7f9", _dark: "#0e1217" } },
          panel: { value: { _light: "white", _dark: "#161c24" } },
          subtle: { value: { _light: "#f3f5f7", _dark: "#1a212b" } },
          muted: { value: { _light: "#eaeef2", _dark: "#222a35" } },
          emphasized: { value: { _light: "#dde3e9", _dark: "#2b3440" } },
        },
        border: {
          DEFAULT: { value: { _light: "#e2e7ec", _dark: "#26303b" } },
          muted: { value: { _light: "#edf0f3", _dark: "#1f2731" } },
          subtle: { value: { _light: "#f1f3f6", _dark: "#1b222b" } },
          emphasized: { value: { _light: "#cfd6de", _dark: "#35404d" } },
        },
      },
    },
  },
});

export const system = createSystem(mergeConfigs(defaultBaseConfig, chakraFoundation), config);

if (import.meta.env.DEV) void warnAboutMissingRecipes();

/** Development only: names a Chakra component that renders unstyled because its recipe was left out above. */
async function warnAboutMissingRecipes(): Promise<void> {
  const chakraTheme = await import("@chakra-ui/react/theme");
  const known = new Set([...Object.keys(chakraTheme.recipes), ...Object.keys(chakraTheme.slotRecipes)]);
  const warnIfMissing = (key: string, registered: boolean) => {
    if (!registered && known.has(key)) console.warn(`[theme] Chakra recipe "${key}" is not registered in client/src/theme.ts; the component renders unstyled.`);
  };
  const { getRecipeFn, getSlotRecipeFn } = system;
  system.getRecipeFn = (key: string, fallback?: unknown) => (warnIfMissing(key, system.isRecipe(key)), getRecipeFn(key, fallback));
  system.getSlotRecipeFn = (key: string, fallback?: unknown) => (warnIfMissing(key, system.isSlotRecipe(key)), getSlotRecipeFn(key, fallback));
}

/* ---------- Light, dark or system (§4) ---------- */

export const THEME_PREFERENCES = ["light", "dark", "system"] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];
export type ColorMode = "light" | "dark";

/** Also read by the inline script of index.html, which applies the theme before the first paint. */
const THEME_STORAGE_KEY = "cairn-theme";

const darkQuery = window.matchMedia("(prefers-color-scheme: dark)");
const listeners = new Set<() => void>();

function storedPreference(): ThemePreference {
  try {
    const value = window.localStorage.getItem(THEME_STORAGE_KEY);
    return (THEME_PREFERENCES as readonly string[]).includes(value ?? "") ? (value as ThemePreference) : "system";
  } catch {
    return "system";
  }
}

let preference: ThemePreference = storedPreference();

function resolvedMode(): ColorMode {
  if (preference === "system") return darkQuery.matches ? "dark" : "light";
  return preference;
}

function applyToDocument(): void {
  const mode = resolvedMode();
  const root = document.documentElement;
  root.classList.remove(mode === "dark" ? "light" : "dark");
  root.classList.add(mode);
  root.style.colorScheme = mode;
}

function changed(): void {
  applyToDocument();
  for (const listener of listeners) listener();
}

darkQuery.addEventListener("change", () => {
  if (preference === "system") changed();
});

window.addEventListener("storage", (event) => {
  if (event.key === THEME_STORAGE_KEY) {
    preference = storedPreference();
    changed();
  }
});

applyToDocument();

export function setThemePreference(next: ThemePreference): void {
  preference = next;
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, next);
  } catch {
    // Without storage the choice holds until the page is closed.
  }
  changed();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useThemePreference(): ThemePreference {
  return useSyncExternalStore(subscribe, () => preference);
}

export function useColorMode(): ColorMode {
  return useSyncExternalStore(subscribe, resolvedMode);
}

/** The profile's colour schema (the server's "Bright" and "Dark") as a theme. */
export function themeForColorSchema(colorSchema: string): ThemePreference {
  return colorSchema === "Dark" ? "dark" : "light";
}

export function colorSchemaForTheme(theme: Exclude<ThemePreference, "system">): string {
  return theme === "dark" ? "Dark" : "Bright";
}
