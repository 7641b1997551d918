import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { initialSizeReport } from './build/initial-size.ts';
import { precompress } from './build/precompress.ts';

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
        // Everything the first page needs in one chunk: it is loaded anyway, and one file compresses better
        // than the dozen small shared chunks that lazy pages would otherwise carve out of it.
        codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] },
      },
    },
  },
});
