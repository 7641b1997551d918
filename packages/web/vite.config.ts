import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { initialSizeReport } from './build/initial-size.ts';
import { precompress } from './build/precompress.ts';

/** 'src/i18n/locales/en/room.json' -> 'texts-en': one chunk per language. */
function catalogueOf(id: string): string | null {
  const language = /[\\/]i18n[\\/]locales[\\/](\w+)[\\/]/.exec(id)?.[1];
  return language ? `texts-${language}` : null;
}

/**
 * What only the reports page (issue 50) and the settings' time zone use, kept out of the files every console page
 * loads: the reports' catalogues (their own small chunks, with the page) and protocol's reports contract (a
 * chunk the two pages share, not `console`).
 */
const REPORTS_ONLY = /[\\/]i18n[\\/]locales[\\/]\w+[\\/]reports\.json|[\\/]protocol[\\/]src[\\/]api[\\/]reports\.ts/;

/** The server the dev mode proxies to (npm run dev starts it on 8080). */
const server = process.env.TALKGROUP_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    initialSizeReport({ budgetKb: 250 }),
    // The members' app is installable (manifest + service worker). The worker is registered by the /talk
    // pages only, with the scope /talk: the administrator console is never served from a cache, so a new
    // build is always what it loads. Server calls (/user/api), sockets and files are never cached.
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      scope: '/talk',
      filename: 'sw.js',
      manifestFilename: 'manifest.webmanifest',
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon-180.png'],
      manifest: {
        id: '/talk',
        name: 'Talkgroup',
        short_name: 'Talkgroup',
        description: 'Push-to-talk voice channels: talk, listen, chat and share your position.',
        lang: 'fr',
        start_url: '/talk',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#0f2537',
        background_color: '#0f2537',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell: the page, its scripts, styles, texts and icons. Spreadsheet code (the console's
        // import and export) is left to the network.
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
        globIgnores: ['**/*exceljs*', '**/*workbook*'],
        navigateFallback: '/index.html',
        navigateFallbackAllowlist: [/^\/talk(\/|$)/],
        navigateFallbackDenylist: [/^\/user\/api\//, /^\/socket\.io\//, /^\/files\//, /^\/device\//, /^\/health/],
        runtimeCaching: [],
        // Web Push (issue 34): its handlers live in public/push-sw.js.
        importScripts: ['/push-sw.js'],
        // The first install takes the open /talk page at once; an update waits for the prompt's Reload.
        clientsClaim: true,
        cleanupOutdatedCaches: true,
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
    }),
    // Last: the service worker and the manifest are written by then.
    precompress(),
  ],
  server: {
    port: 5173,
    proxy: {
      '/user/api': server,
      '/device': server,
      '/files': server,
      '/health': server,
      '/auth/oidc': server,
      '/socket.io': { target: server, ws: true },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // The budget that matters is the initial one, printed by initialSizeReport; lazy chunks may be larger.
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        // A handful of files per page, not dozens (issue 48: the room's first visit fetched 77 scripts). Each
        // group is one file, the highest priority first; a module no group takes stays with its lazy page.
        codeSplitting: {
          groups: [
            // Everything the first page needs: it is loaded anyway, and one file compresses better than the dozen
            // small shared chunks that lazy pages would otherwise carve out of it.
            { name: 'initial', tags: ['$initial'], priority: 100 },
            // One language's catalogues in one file (about 15 KB gzipped), loaded with the first page that needs
            // any of them; the fallback language's too, as i18next asks for it.
            {
              name: catalogueOf,
              test: (id) => /[\\/]i18n[\\/]locales[\\/]/.test(id) && !REPORTS_ONLY.test(id),
              priority: 50,
            },
            // Leaflet, for the maps of the room, the dispatch console, the members' app and the users' trails.
            // Not Geoman: it extends the global `L` once Leaflet has run, and loads only where zones are drawn.
            { name: 'map', test: /[\\/]node_modules[\\/](leaflet|react-leaflet|@react-leaflet)[\\/]/, priority: 40 },
            // The console's frame: its shell, and what follows the user's rights on every signed-in page.
            { name: 'shell', test: /[\\/]src[\\/]app[\\/](shell[\\/]|RightsFollower)/, priority: 20 },
            // What two or more lazy pages share (MUI's parts, the tables, the voice engine, the room's pieces):
            // one file, cached once for every page. Spreadsheets stay apart (ExcelJS, only on import and export).
            {
              name: 'console',
              test: (id) => !/exceljs|workbook/.test(id) && !REPORTS_ONLY.test(id),
              minShareCount: 2,
              priority: 10,
            },
          ],
        },
      },
    },
  },
});
