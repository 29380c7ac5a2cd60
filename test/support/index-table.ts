/**
 * Prints the README's index table: every collection of the models (src/models/), each of its declared
 * indexes, and the query shapes it serves, as Markdown.
 *
 *   npm run docs:indexes                                   # shapes: what each index can serve
 *   QUERY_SHAPES_OUT=/tmp/shapes.json npm test             # record every shape of a test run…
 *   npm run docs:indexes -- --shapes /tmp/shapes.json      # …and list, per index, the shapes it served
 *   npm run docs:indexes -- --out /tmp/index-table.md      # write the table to a file instead
 *
 * The shapes file is test/support/query-shapes-hooks.ts's output (`QUERY_SHAPES_OUT`): each distinct shape
 * with the index test/support/query-shapes.ts `servingIndex` found for it (the embedded store's pick, and
 * MongoDB's when another).
 */
import fs from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';
import { indexName, type IndexKeys } from './query-shapes';

/** One recorded shape of a `QUERY_SHAPES_OUT` file. */
interface RecordedShape {
  key: string;
  index: string | null;
  accepted?: string;
}

/** Loads every model module (as src/models/register.ts does), so that `mongoose.models` holds them all. */
async function loadModels(): Promise<void> {
  const dir = path.resolve(__dirname, '../../src/models');
  for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.js')) await import(path.join(dir, f));
}

/**
 * What an index can serve, from its keys (MongoDB's equality-sort-range rule, and the embedded store's:
 * scripts/ferretdb-patches/0002 and 0003): equality on its first keys, then a sort or a range on the next.
 */
function canServe(keys: IndexKeys, unique: boolean): string {
  const names = keys.map(([f]) => `\`${f}\``);
  if (keys.length === 1)
    return keys[0][0] === '_id' ? 'lookup by id; ranges and sort on `_id`' : `equality, range or sort on ${names[0]}`;
  const tail = keys.at(-1)![0] === '_id' ? ', newest or oldest first by `_id`' : '';
  return `equality on ${names.slice(0, -1).join(' → ')} (or a leading part), then a sort or range on the next key${tail}${unique ? '; unique' : ''}`;
}

/**
 * The table's Markdown.
 * @param shapes recorded shapes (`QUERY_SHAPES_OUT`), or none
 */
export async function indexTable(shapes: RecordedShape[] | undefined): Promise<string> {
  await loadModels();
  const rows: string[] = ['| collection | index | query shapes it serves |', '|---|---|---|'];
  const models = Object.values(mongoose.models).sort((a, b) =>
    a.collection.collectionName.localeCompare(b.collection.collectionName),
  );
  for (const model of models) {
    const coll = model.collection.collectionName;
    const indexes: [IndexKeys, boolean][] = [
      [[['_id', 1]], true],
      ...model.schema
        .indexes()
        .map(([keys, opts]) => [Object.entries(keys) as IndexKeys, !!opts?.unique] as [IndexKeys, boolean]),
    ];
    for (const [keys, unique] of indexes) {
      const name = indexName(keys);
      let served = canServe(keys, unique && keys[0][0] !== '_id');
      if (shapes) {
        const mine = shapes
          .filter((s) => s.key.startsWith(`${coll}.`) && s.index !== null)
          .filter((s) => (keys[0][0] === '_id' && keys.length === 1 ? s.index === '_id' : s.index!.includes(name)))
          .map((s) => `\`${s.key.slice(coll.length + 1).replace(/\|/g, '\\|')}\``);
        if (mine.length) served = mine.join('<br>');
        else served += ' (no query of the recorded run used it)';
      }
      rows.push(`| \`${coll}\` | \`${name}\` | ${served} |`);
    }
  }
  return rows.join('\n') + '\n';
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const arg = (name: string) => {
    const i = args.indexOf(name);
    return i < 0 ? undefined : args[i + 1];
  };
  const shapesFile = arg('--shapes');
  const shapes = shapesFile ? (JSON.parse(fs.readFileSync(shapesFile, 'utf8')) as RecordedShape[]) : undefined;
  void indexTable(shapes).then((table) => {
    const out = arg('--out');
    if (out) fs.writeFileSync(out, table);
    else process.stdout.write(table);
  });
}
