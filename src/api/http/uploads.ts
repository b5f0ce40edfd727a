import type { IncomingMessage, ServerResponse } from 'node:http';
import { CitegraphError, ErrorCode } from '../../errors';
import { safeFileName } from '../../sets/set-info';
import { ownerOf, uploadPath } from '../resolvers/sets';
import type { Front } from './front';
import { HttpProblem, readBody, sendJson } from './replies';

/** Uploads waiting for a place beyond the ones running: one more is told to come back (OVERLOADED). */
const UPLOAD_QUEUE = 8;

/**
 * `POST /document-sets` (a new set with this document) or `POST /document-sets/{id}/documents`: the body is the
 * file's bytes, `X-Document-Name` its file name (percent-encoded when not ASCII; the extension gives the format),
 * `?ttlSeconds=` the new set's lifetime. The custom header makes every browser send a CORS preflight first, which
 * this server answers only for listed origins: a page elsewhere cannot upload in a user's name (CSRF).
 */
export async function upload(
  front: Front,
  request: IncomingMessage,
  response: ServerResponse,
  setId: string | null,
): Promise<void> {
  const principal = front.authorise(request);
  const rawName = request.headers['x-document-name'];
  const named = Array.isArray(rawName) ? rawName[0] : rawName;
  if (!named) {
    throw new HttpProblem(
      400,
      ErrorCode.BAD_REQUEST,
      'send the file name in the X-Document-Name header (its extension gives the format: .pdf, .md, .html, .txt)',
    );
  }
  let name: string;
  try {
    // Made safe before it is used anywhere (messages, logs, the stored document).
    name = safeFileName(decodeURIComponent(named));
  } catch {
    throw new HttpProblem(400, ErrorCode.BAD_REQUEST, 'X-Document-Name is not valid percent-encoding');
  }
  if (!name) throw new HttpProblem(400, ErrorCode.BAD_REQUEST, 'X-Document-Name has no usable file name');
  const owner = ownerOf({ setOwner: front.setOwner(principal) });
  if (/^multipart\//i.test(String(request.headers['content-type'] ?? ''))) {
    throw new HttpProblem(
      415,
      ErrorCode.BAD_REQUEST,
      'send the file itself as the body (curl --data-binary @file), not a multipart form (curl -F)',
    );
  }
  // A client that hangs up cancels its upload wherever it is: waiting, read, chunked or embedded.
  const hangUp = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) hangUp.abort(new Error('the client went away'));
  });
  // The body is read only once a place is free: bytes held in memory are bounded by the running uploads.
  if (front.uploads.active >= front.uploads.size && front.uploads.pending >= UPLOAD_QUEUE) {
    throw new HttpProblem(503, ErrorCode.OVERLOADED, 'the service is busy reading uploads; try again in 10 s', {
      'retry-after': '10',
    });
  }
  let release: () => void;
  try {
    release = await front.uploads.acquire(hangUp.signal);
  } catch {
    throw new CitegraphError(ErrorCode.CANCELLED, `${name}: the upload was cancelled while it waited`);
  }
  try {
    const body = await readBody(request, front.app.settings.documentSets.maxUploadBytes);
    if (body.length === 0) throw new HttpProblem(400, ErrorCode.BAD_REQUEST, `${name}: the body is empty`);
    const ttl = new URL(request.url ?? '/', 'http://citegraph.invalid').searchParams.get('ttlSeconds');
    const sets = front.app.documentSets;
    const created = setId === null ? await sets.create(owner, ttl === null ? null : Number(ttl)) : null;
    let added;
    try {
      added = await sets.addDocument(owner, setId ?? created!.id, name, body, hangUp.signal);
    } catch (error) {
      // A new set whose first document could not be read is not left behind empty.
      if (created) await sets.delete(owner, created.id);
      throw error;
    }
    sendJson(response, created ? 201 : 200, {
      documentSet: { ...added.set, uploadPath: uploadPath(added.set.id) },
      document: added.document,
      unchanged: added.unchanged,
    });
  } finally {
    release();
  }
}
