import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { repoRoot, sourceEntries } from '../deploy/local/workspaces.mjs';

// Four entries, one build: the staff app (index.html), the subcontractor portal (portal.html), the public site
// (site.html) and the public share page (share.html, ADR 0049). The bff serves dist/ on one origin and picks the
// entry by path.
export default defineConfig({
  plugins: [react()],
  // `@workspace/cis/domain` and any other workspace entry the browser code imports compile from their TypeScript
  // source (their package.json `development` condition). An alias per entry rather than the `development` condition
  // for every package: that condition would also pick react-router's development build for the production bundle.
  resolve: {
    alias: sourceEntries().map(({ specifier, source }) => ({
      find: new RegExp(`^${specifier}$`),
      replacement: resolve(repoRoot, source),
    })),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The shared vendor chunk (React, antd) is about 500 kB minified, 165 kB gzipped; warn only beyond that.
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      input: {
        app: resolve(import.meta.dirname, 'index.html'),
        portal: resolve(import.meta.dirname, 'portal.html'),
        site: resolve(import.meta.dirname, 'site.html'),
        share: resolve(import.meta.dirname, 'share.html'),
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
