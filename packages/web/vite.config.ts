import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { initialSizeReport } from './build/initial-size.ts';

/** The server the dev mode proxies to (npm run dev starts it on 8080). */
const server = process.env.TALKGROUP_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), initialSizeReport({ budgetKb: 250 })],
  server: {
    port: 5173,
    proxy: {
      '/user/api': server,
      '/device': server,
      '/files': server,
      '/health': server,
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
