import type { AppContext } from '../../app-context';
import { REPORT_EXTENSIONS, REPORT_MEDIA_TYPES, reportFile, type ReportFormat } from '../../pipeline/report-formats';
import type { Report, ReportOptions, ReportSection } from '../../pipeline/report-service';
import type { RequestContext } from '../../request-context';
import { pumpEvents, relayEvents } from '../event-pump';
import type { GraphqlContext } from '../graphql-context';
import type { Resolvers } from '../generated/graphql';
import type { Lanes } from '../lanes';
import { refuseUnknownScope } from './ask';

/** A report as a file of the format: the `reportFile` query and `GET /export/report` (src/api/http/downloads.ts). */
export async function reportAsFile(
  app: AppContext,
  ctx: RequestContext,
  subject: string,
  options: ReportOptions,
  format: ReportFormat,
): Promise<{ format: ReportFormat; mediaType: string; fileName: string; content: string; cited: number }> {
  const report = await app.reports.report(subject, options, { ctx, signal: ctx.deadline.signal });
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
  const report = yield* relayEvents(
    pumpEvents<ReportEventModel, Report>((push) =>
      lanes.analytics.run(context.request, () =>
        app.reports.report(subject, options, {
          ctx: context.request,
          signal: context.request.deadline.signal,
          onSection: (section) => push({ kind: 'SECTION', ms: Date.now() - started, section }),
        }),
      ),
    ),
    (event) => ({ reportStream: event }),
    () => context.request.deadline.dispose(),
  );
  yield { reportStream: { kind: 'REPORT', ms: Date.now() - started, report } };
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
        return lanes.analytics.run(context.request, () =>
          app.reports.report(args.subject, args.options ?? {}, {
            ctx: context.request,
            signal: context.request.deadline.signal,
          }),
        );
      },
      reportFile: async (_, args, context) => {
        await refuseUnknownScope(app, args.options?.collections);
        return lanes.analytics.run(context.request, () =>
          reportAsFile(app, context.request, args.subject, args.options ?? {}, args.format),
        );
      },
    },
  };
}
