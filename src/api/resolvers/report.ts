import type { AppContext } from '../../app-context';
import { REPORT_EXTENSIONS, REPORT_MEDIA_TYPES, reportFile, type ReportFormat } from '../../pipeline/report-formats';
import type { Report, ReportOptions, ReportSection } from '../../pipeline/report-service';
import type { GraphqlContext } from '../graphql-context';
import type { Resolvers } from '../generated/graphql';
import type { Lanes } from '../lanes';
import { refuseUnknownScope } from './ask';

/** A report as a file of the format: the `reportFile` query and `GET /export/report` (src/api/http/downloads.ts). */
export async function reportAsFile(
  app: AppContext,
  subject: string,
  options: ReportOptions,
  format: ReportFormat,
): Promise<{ format: ReportFormat; mediaType: string; fileName: string; content: string; cited: number }> {
  const report = await app.reports.report(subject, options);
  const records = await app.exports.records(report.bibliography.map((entry) => entry.paperId));
  return {
    format,
    mediaType: REPORT_MEDIA_TYPES[format],
    fileName: `citegraph-report.${REPORT_EXTENSIONS[format]}`,
    content: reportFile(report, records, format),
    cited: report.cited,
  };
}

/** One event of a streamed report (the GraphQL `ReportEvent`). */
interface ReportEventModel {
  kind: 'SECTION' | 'REPORT';
  ms: number;
  section?: ReportSection;
  report?: Report;
}

/**
 * The sections of one report as they are finished, then the report. Ending the iteration (the client went away)
 * aborts the request, which stops the report before its next front.
 */
async function* reportEvents(
  app: AppContext,
  lanes: Lanes,
  context: GraphqlContext,
  subject: string,
  options: ReportOptions,
): AsyncGenerator<{ reportStream: ReportEventModel }> {
  const started = Date.now();
  const queue: ReportEventModel[] = [];
  let wake: (() => void) | null = null;
  let outcome: { report?: Report; error?: Error } | null = null;
  const work = lanes.analytics
    .run(context.request, () =>
      app.reports.report(subject, options, {
        signal: context.request.deadline.signal,
        onSection: (section) => {
          queue.push({ kind: 'SECTION', ms: Date.now() - started, section });
          wake?.();
        },
      }),
    )
    .then(
      (report) => {
        outcome = { report };
      },
      (error: unknown) => {
        outcome = { error: error instanceof Error ? error : new Error(String(error)) };
      },
    )
    .finally(() => wake?.());
  try {
    for (;;) {
      while (queue.length > 0) yield { reportStream: queue.shift()! };
      if (outcome) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = null;
    }
    await work;
    const done = outcome as { report?: Report; error?: Error };
    if (done.error !== undefined) throw done.error;
    yield { reportStream: { kind: 'REPORT', ms: Date.now() - started, report: done.report! } };
  } finally {
    if (!outcome) context.request.deadline.dispose();
  }
}

/** Related-work reports (src/pipeline/report-service.ts); a report reads networks and passages: the analytics lane. */
export function reportResolvers(app: AppContext, lanes: Lanes): Resolvers {
  return {
    Subscription: {
      reportStream: {
        subscribe: async (_, args, context) => {
          await refuseUnknownScope(app, args.options?.collections);
          lanes.analytics.checkRoom();
          return reportEvents(app, lanes, context, args.subject, args.options ?? {});
        },
      },
    },
    Query: {
      report: async (_, args, context) => {
        await refuseUnknownScope(app, args.options?.collections);
        return lanes.analytics.run(context.request, () => app.reports.report(args.subject, args.options ?? {}));
      },
      reportFile: async (_, args, context) => {
        await refuseUnknownScope(app, args.options?.collections);
        return lanes.analytics.run(context.request, () =>
          reportAsFile(app, args.subject, args.options ?? {}, args.format),
        );
      },
    },
  };
}
