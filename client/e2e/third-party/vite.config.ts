import path from 'node:path';
import { defineConfig } from 'vite';

/** Builds the third party's page script into THIRD_PARTY_OUT_DIR, for the browser suite. */
export default defineConfig({
  logLevel: 'warn',
  // Library mode leaves process.env in the code; a browser has none.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: process.env.THIRD_PARTY_OUT_DIR,
    emptyOutDir: true,
    minify: false,
    lib: { entry: path.join(import.meta.dirname, 'app.ts'), formats: ['iife'], name: 'thirdParty', fileName: () => 'app.js' },
  },
});
