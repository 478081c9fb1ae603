import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** Where `vite dev` forwards API calls: a server started with `npm run dev` or `npm start` (default port 9380). */
const apiTarget = process.env.CAIRN_API ?? "http://127.0.0.1:9380";

export default defineConfig({
  plugins: [react()],
  server: {
    // The message files live in ../locales, shared with the server.
    fs: { allow: [".."] },
    proxy: {
      "/graphql": { target: apiTarget, ws: true, changeOrigin: true },
      "/api": { target: apiTarget, changeOrigin: true },
      "/v1": { target: apiTarget, changeOrigin: true },
      "/healthz": { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        // Libraries change less often than our code; separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/, priority: 30 },
            {
              name: "apollo",
              // graphql-ws is left out: it arrives with the first subscription.
              test: /node_modules[\\/](@apollo[\\/]client[\\/](?!link[\\/]subscriptions)|graphql[\\/]|rxjs|@wry|optimism|tslib|@graphql-typed-document-node)/,
              priority: 20,
            },
            { name: "i18n", test: /node_modules[\\/](i18next|i18next-browser-languagedetector|react-i18next)[\\/]/, priority: 20 },
          ],
        },
      },
    },
  },
});
