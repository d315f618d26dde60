import { gzipSync } from 'node:zlib';
import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/** The chunks an entry loads before anything renders: itself and, transitively, its static imports. */
export function firstScreenChunks(bundle: OutputBundle, entryName: string): OutputChunk[] {
  const chunks = new Map(
    Object.values(bundle)
      .filter((output): output is OutputChunk => output.type === 'chunk')
      .map((chunk) => [chunk.fileName, chunk]),
  );
  const entry = [...chunks.values()].find((chunk) => chunk.isEntry && chunk.name === entryName);
  if (!entry) throw new Error(`The build has no entry chunk named "${entryName}".`);
  const loaded = new Map<string, OutputChunk>();
  const visit = (chunk: OutputChunk) => {
    if (loaded.has(chunk.fileName)) return;
    loaded.set(chunk.fileName, chunk);
    for (const fileName of chunk.imports) {
      const imported = chunks.get(fileName);
      if (imported) visit(imported);
    }
  };
  visit(entry);
  return [...loaded.values()];
}

const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/**
 * Prints the JavaScript the app's first screen loads, gzipped, chunk by chunk, and fails the
 * build when it is over `limitBytes`. Chunks loaded with `import()` (GraphiQL, dialogs, the
 * inspector) are not part of it.
 */
export function firstScreenBudget({ entryName, limitBytes }: { entryName: string; limitBytes: number }): Plugin {
  return {
    name: 'first-screen-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const sizes = firstScreenChunks(bundle, entryName)
        .map((chunk) => ({ fileName: chunk.fileName, gzipped: gzipSync(chunk.code, { level: 9 }).length }))
        .sort((a, b) => b.gzipped - a.gzipped);
      const total = sizes.reduce((sum, chunk) => sum + chunk.gzipped, 0);
      const lines = sizes.map((chunk) => `  ${kilobytes(chunk.gzipped).padStart(9)}  ${chunk.fileName}`);
      const summary = `First-screen JavaScript: ${kilobytes(total)} gzipped (limit ${kilobytes(limitBytes)})`;
      console.log(`\n${summary}\n${lines.join('\n')}\n`);
      if (total > limitBytes) this.error(`${summary}: over the limit. Load what the first screen does not need with import().`);
    },
  };
}
