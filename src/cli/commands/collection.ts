import { badInput } from '../../errors';
import { ensureDatabase } from '../database';
import { checkCollections, output, say, withApp } from '../shared';

/** `citegraph collection delete NAME...`: collections and everything only they held. */
export async function collectionCommand(args: string[]): Promise<void> {
  const [action, ...names] = args;
  if (action !== 'delete' || names.length === 0) throw badInput('usage: citegraph collection delete NAME...');
  await withApp(async (app) => {
    await ensureDatabase(app);
    await checkCollections(app, names);
    const results = [];
    for (const name of names) {
      const done = await app.ingest.deleteCollection(name);
      results.push({ ...done, collection: name });
      if (!output.json) {
        process.stdout.write(
          `${name}: ${done.papers} papers left the collection; ${done.deleted} removed, ${done.stubbed} kept as stubs (still cited), ${done.orphans} orphaned nodes removed\n`,
        );
      }
    }
    if (output.json) say('', results);
  });
}

/** `citegraph stats`: counts per label and relationship type, and per collection (JSON). */
export async function statsCommand(): Promise<void> {
  await withApp(async (app) => {
    await ensureDatabase(app);
    const { counts, collections } = await app.catalog.stats();
    const pendingChunks = await app.catalog.pendingChunks();
    const all = { ...counts, pendingChunks, embeddedChunks: (counts.chunks ?? 0) - pendingChunks };
    const embedding = {
      model: await app.embeddingSpace.recorded(),
      served: app.embeddingSpace.model,
      ...(app.companion
        ? {
            companion: {
              model: await app.companion.space.recorded(),
              served: app.companion.space.model,
              pendingChunks: await app.catalog.pendingCompanionChunks(),
            },
          }
        : {}),
    };
    process.stdout.write(`${JSON.stringify({ counts: all, embedding, collections }, null, 2)}\n`);
  });
}
