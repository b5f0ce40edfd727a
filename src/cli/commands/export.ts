import { parseArgs } from 'node:util';
import { badInput } from '../../errors';
import { ensureDatabase } from '../database';
import { bibliographyFormat, checkCollections, withApp, writeExport } from '../shared';

/** `citegraph export`: the papers of ids or of collections as a file. */
export async function exportCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      format: { type: 'string', default: 'bibtex' },
      ids: { type: 'string' },
      collection: { type: 'string', multiple: true },
      first: { type: 'string', default: '1000' },
      out: { type: 'string' },
    },
  });
  const format = bibliographyFormat(values.format);
  if (!values.ids && !values.collection?.length) throw badInput('export needs --ids W1,W2,… or --collection NAME');
  await withApp(async (app) => {
    await ensureDatabase(app);
    await checkCollections(app, values.collection);
    const file = await app.exports.export(
      values.ids
        ? {
            ids: values.ids
              .split(',')
              .map((id) => id.trim())
              .filter((id) => id !== ''),
          }
        : { filter: { collections: values.collection! } },
      format,
      Number(values.first),
    );
    writeExport(file, values.out);
  });
}
