import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';

const serverDir = path.resolve(__dirname, '..');
const MAX_FILE_LINES = 450;
const MAX_FUNCTION_LINES = 100;

/** Folders of code that is generated, not written: held to no length. */
const GENERATED = new Set(['gql', 'generated', 'node_modules', 'dist']);

function sourceFiles(dir: string, skipped: ReadonlySet<string> = new Set(['__tests__'])): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return skipped.has(name) ? [] : sourceFiles(file, skipped);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [file] : [];
  });
}

/** dependency-cruiser's command, wherever npm hoisted it. */
function depcruiseBin(dir = serverDir): string {
  const bin = path.join(dir, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  if (existsSync(bin)) return bin;
  if (path.dirname(dir) === dir) throw new Error('dependency-cruiser is not installed');
  return depcruiseBin(path.dirname(dir));
}

const files = sourceFiles(path.join(serverDir, 'src'));
const relative = (file: string) => path.relative(serverDir, file);

/** Every function, method and arrow function of a file with its length in lines. */
function functionLengths(file: string): { name: string; lines: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : `(anonymous at line ${start + 1})`;
      found.push({ name: `${relative(file)}:${name}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The relative imports of a file, as absolute paths without their extension. */
function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].map((match) => path.resolve(path.dirname(file), match[1]));
}

/**
 * Circles among a folder's rooms (its files, and its subfolders taken whole): inside every folder
 * imports run one way too, so that its rooms stand in floors. Each circle is named by its rooms.
 */
function roomCircles(folder: string): string[] {
  const roomOf = (target: string) => {
    const first = path.relative(folder, target).split(path.sep)[0];
    return first.startsWith('..') ? null : first.replace(/\.ts$/, '');
  };
  const edges = new Map<string, Set<string>>();
  for (const file of files.filter((candidate) => candidate.startsWith(folder + path.sep))) {
    const from = roomOf(file)!;
    for (const target of importsOf(file)) {
      const to = roomOf(target);
      if (to !== null && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  // A room on a path back to itself is in a circle: walk from each room, depth first.
  const circles = new Set<string>();
  const walk = (room: string, trail: string[]) => {
    for (const next of edges.get(room) ?? []) {
      const at = trail.indexOf(next);
      if (at >= 0) circles.add([...trail.slice(at)].sort().join(' <-> '));
      else walk(next, [...trail, next]);
    }
  };
  for (const room of edges.keys()) walk(room, [room]);
  return [...circles].map((circle) => `${relative(folder) || '.'}: ${circle}`);
}

function folders(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const child = path.join(dir, name);
    return statSync(child).isDirectory() && name !== '__tests__' ? [child, ...folders(child)] : [];
  });
}

describe('the server layout', () => {
  it('keeps its import rules: no circle, platform and shared import no module, modules only those below them, adapters never the API layer', async () => {
    // The rules and why are in .dependency-cruiser.cjs; a violation fails with its list.
    const run = promisify(execFile)(process.execPath, [depcruiseBin(), 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], {
      cwd: serverDir,
    });
    await expect(run.then(({ stdout }) => stdout)).resolves.toContain('no dependency violations found');
  }, 120_000);

  it('inside every folder, its files and subfolders import one another without a circle', () => {
    const src = path.join(serverDir, 'src');
    expect([src, ...folders(src)].flatMap(roomCircles)).toEqual([]);
  });

  it(`has no hand-written source file over ${MAX_FILE_LINES} lines`, () => {
    const long = files.map((file) => ({ file: relative(file), lines: readFileSync(file, 'utf8').split('\n').length })).filter(({ lines }) => lines > MAX_FILE_LINES);
    expect(long).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(files.flatMap(functionLengths).filter(({ lines }) => lines > MAX_FUNCTION_LINES)).toEqual([]);
  });

  // The rest of the repository is held to the same lengths: the client, the SDK, the MCP bin, the
  // benchmarks and the tests (a test file's describe blocks may run long; its helpers may not).
  const repoRoot = path.resolve(serverDir, '..');
  const elsewhere = ['client/src', 'client/e2e', 'sdk/src', 'sdk/test', 'mcp/src', 'mcp/test', 'bench', 'server/test', 'server/src']
    .map((folder) => path.join(repoRoot, folder))
    .filter(existsSync)
    .flatMap((folder) => sourceFiles(folder, GENERATED));

  it(`has no hand-written source file over ${MAX_FILE_LINES} lines anywhere in the repository`, () => {
    const long = elsewhere.map((file) => ({ file: path.relative(repoRoot, file), lines: readFileSync(file, 'utf8').split('\n').length })).filter(({ lines }) => lines > MAX_FILE_LINES);
    expect(long).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines outside test files anywhere in the repository`, () => {
    const written = elsewhere.filter((file) => !/\.test\.tsx?$/.test(file));
    expect(written.flatMap(functionLengths).filter(({ lines }) => lines > MAX_FUNCTION_LINES)).toEqual([]);
  });
});
