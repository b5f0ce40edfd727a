import type { IncomingMessage, ServerResponse } from 'node:http';
import { WHOLE_NETWORK_KINDS } from '../../analytics/citation-networks';
import {
  EXTENSIONS as NETWORK_EXTENSIONS,
  MEDIA_TYPES as NETWORK_MEDIA_TYPES,
  type NetworkFileFormat,
} from '../../analytics/network-export';
import { BIBLIOGRAPHY_FORMAT_NAMES, bibliographyFormatNamed } from '../../catalog/bibliography';
import { ErrorCode } from '../../errors';
import { reportFormatNamed } from '../../pipeline/report-formats';
import { refuseUnknownNames } from '../inputs';
import { reportAsFile } from '../resolvers/report';
import type { Front } from './front';
import { HttpProblem, sendAttachment } from './replies';

/** The `format` parameter read by `named`; a 400 saying what it must be when it names none. */
function formatParameter<F>(url: URL, named: (name: string) => F | null, expected: string, fallback = ''): F {
  const name = url.searchParams.get('format') ?? fallback;
  const format = named(name);
  if (!format)
    throw new HttpProblem(400, ErrorCode.BAD_USER_INPUT, `format must be ${expected}; got "${name.slice(0, 40)}"`);
  return format;
}

/**
 * `GET /export/papers?format=bibtex&ids=W1,W2` (or `&collection=NAME`, repeatable; `&first=N`): a paper list as a
 * file to save (Content-Disposition: attachment), the same file as the `paperExport` query gives.
 */
export async function downloadPapers(
  front: Front,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  front.authorise(request);
  const format = formatParameter(url, bibliographyFormatNamed, `one of ${BIBLIOGRAPHY_FORMAT_NAMES}`);
  const idList = url.searchParams.get('ids');
  const collections = url.searchParams.getAll('collection').filter((c) => c !== '');
  if (idList === null && collections.length === 0) {
    throw new HttpProblem(400, ErrorCode.BAD_USER_INPUT, 'give ids=W1,W2,… or collection=NAME');
  }
  if (idList === null) await refuseUnknownNames({ collections }, front.app.catalog.names);
  const first = url.searchParams.has('first') ? Number(url.searchParams.get('first')) : 1000;
  const file = await front.app.exports.export(
    idList !== null
      ? {
          ids: idList
            .split(',')
            .map((id) => id.trim())
            .filter((id) => id !== ''),
        }
      : { filter: { collections } },
    format,
    first,
  );
  sendAttachment(response, file.content, file.mediaType, file.fileName, {
    'x-citegraph-papers': String(file.papers),
  });
}

/**
 * `GET /export/network?network=coauthorship&format=graphml&collection=NAME` (network: coupling, cocitation,
 * coauthorship, citation, topic_cooccurrence; format: graphml, gexf, vosviewer_map, vosviewer_network, csv, svg;
 * `maxNodes`, `minWeight`; for svg `colouring=cluster|year`): the file `networkExport` gives, as an attachment.
 */
export async function downloadNetwork(
  front: Front,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  front.authorise(request);
  const kind = (url.searchParams.get('network') ?? '').toUpperCase();
  const format = (url.searchParams.get('format') ?? '').toUpperCase() as NetworkFileFormat;
  const colouring = (url.searchParams.get('colouring') ?? '').toUpperCase();
  if (!(WHOLE_NETWORK_KINDS as readonly string[]).includes(kind)) {
    throw new HttpProblem(
      400,
      ErrorCode.BAD_USER_INPUT,
      'network must be coupling, cocitation, coauthorship, citation or topic_cooccurrence',
    );
  }
  if (!Object.hasOwn(NETWORK_MEDIA_TYPES, format)) {
    throw new HttpProblem(
      400,
      ErrorCode.BAD_USER_INPUT,
      'format must be graphml, gexf, vosviewer_map, vosviewer_network, csv or svg',
    );
  }
  if (colouring !== '' && colouring !== 'CLUSTER' && colouring !== 'YEAR') {
    throw new HttpProblem(400, ErrorCode.BAD_USER_INPUT, 'colouring must be cluster or year');
  }
  const collections = url.searchParams.getAll('collection').filter((c) => c !== '');
  const number = (name: string, fallback: number) =>
    url.searchParams.has(name) ? Number(url.searchParams.get(name)) : fallback;
  await refuseUnknownNames({ collections }, front.app.catalog.names);
  const file = await front.app.science.networks.file(
    collections.length ? { collections } : null,
    kind as (typeof WHOLE_NETWORK_KINDS)[number],
    format,
    {
      maxNodes: number('maxNodes', 500),
      minWeight: number('minWeight', 1),
      colouring: colouring === '' ? undefined : colouring,
    },
  );
  sendAttachment(
    response,
    file.content,
    NETWORK_MEDIA_TYPES[format],
    `citegraph-${kind.toLowerCase()}.${NETWORK_EXTENSIONS[format]}`,
  );
}

/**
 * `GET /export/report?subject=emicizumab&format=markdown` (markdown, html, latex, bibtex; `collection` repeatable,
 * `yearFrom`, `yearTo`, `fronts`, `sentencesPerFront`, `paper` repeatable for a paper set): the file `reportFile`
 * gives, as an attachment.
 */
export async function downloadReport(
  front: Front,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  front.authorise(request);
  const format = formatParameter(url, reportFormatNamed, 'markdown, html, latex or bibtex', 'markdown');
  const subject = url.searchParams.get('subject') ?? '';
  const collections = url.searchParams.getAll('collection').filter((c) => c !== '');
  await refuseUnknownNames({ collections }, front.app.catalog.names);
  const number = (name: string) => {
    const value = url.searchParams.get(name);
    if (value === null || value === '') return null;
    const parsed = Number(value);
    if (!Number.isInteger(parsed))
      throw new HttpProblem(400, ErrorCode.BAD_USER_INPUT, `${name} must be a whole number`);
    return parsed;
  };
  const file = await reportAsFile(
    front.app,
    front.app.requestContext(),
    subject,
    {
      collections: collections.length ? collections : null,
      yearFrom: number('yearFrom'),
      yearTo: number('yearTo'),
      fronts: number('fronts'),
      sentencesPerFront: number('sentencesPerFront'),
      papers: url.searchParams.getAll('paper').filter((id) => id !== ''),
    },
    format,
  );
  sendAttachment(response, file.content, file.mediaType, file.fileName, { 'x-citegraph-cited': String(file.cited) });
}
