import type { WorkRecord } from '../domain';
import type { GraphExecutor } from '../graph/executor';
import { queries } from '../graph/query-registry';
import type { RequestContext } from '../request-context';

/** What `labelStubs` did: stubs asked about, labelled from a found record, not found, and failed lookups. */
export interface StubLabelling {
  asked: number;
  labelled: number;
  notFound: number;
  failed: Array<{ id: string; error: string }>;
}

/** Most stubs labelled in one run. */
export const MAX_STUB_LABELS = 10_000;

/**
 * Labels the `top` most cited stubs (of a collection, or of the whole graph) with the title, year and DOI a lookup by
 * their OpenAlex id finds (OpenAlex references carry ids only, so co-citation maps show bare ids otherwise). A stub
 * stays a stub; a stub not found is marked looked-up; a failed lookup (network, rate limit) leaves it for the next
 * run. Lookups go through the provider's own rate limiter; labels are written in batches.
 */
export async function labelStubs(
  executor: GraphExecutor,
  lookup: (ctx: RequestContext, id: string) => Promise<WorkRecord | null>,
  ctx: RequestContext,
  options: { top: number; collection: string | null; source: string },
): Promise<StubLabelling> {
  const top = Math.min(Math.max(0, Math.floor(options.top)), MAX_STUB_LABELS);
  const stubs = await executor.read<{ id: string }>(queries().topStubs({ collection: options.collection, limit: top }));
  const result: StubLabelling = { asked: stubs.length, labelled: 0, notFound: 0, failed: [] };
  const at = new Date().toISOString();
  for (let offset = 0; offset < stubs.length; offset += 25) {
    const batch = stubs.slice(offset, offset + 25);
    const found = await Promise.all(
      batch.map(async ({ id }) => {
        try {
          return { id, record: await lookup(ctx, id) };
        } catch (error) {
          result.failed.push({ id, error: (error as Error).message });
          return null;
        }
      }),
    );
    const rows = found
      .filter((entry): entry is { id: string; record: WorkRecord | null } => entry !== null)
      .map(({ id, record }) => ({
        id,
        title: record?.title ?? null,
        year: record?.year ?? null,
        doi: record?.doi ?? null,
        source: record ? options.source : `${options.source}:not-found`,
      }));
    result.labelled += rows.filter((row) => !row.source.endsWith(':not-found')).length;
    result.notFound += rows.filter((row) => row.source.endsWith(':not-found')).length;
    if (rows.length > 0) await executor.write(queries().labelStubs({ rows, at }));
  }
  return result;
}
