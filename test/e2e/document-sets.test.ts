import { readFileSync } from 'node:fs';
import path from 'node:path';
import { removeCollections, startTestServer } from '../helpers/context';
import { writeSearchCorpus } from '../helpers/search-corpus';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'documents');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

const ALICE = 'alice-secret-0123456789';
const BOB = 'bob-secret-0123456789ab';
const OWN = ['doc-sets-shared'];

/** A server of its own settings on the test database; `as` sends with a key (or none), GraphQL or uploads. */
async function start(env: Record<string, string>, host = '127.0.0.1') {
  const { app, base, close } = await startTestServer(env, host);
  const as = (key: string | null) => {
    const auth: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
    return {
      gql: async (query: string, variables: Record<string, unknown> = {}) => {
        const response = await fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...auth },
          body: JSON.stringify({ query, variables }),
        });
        return (await response.json()) as any;
      },
      upload: async (pathname: string, name: string | null, body: Buffer, type = 'application/octet-stream') => {
        const response = await fetch(`${base}${pathname}`, {
          method: 'POST',
          headers: { 'content-type': type, ...auth, ...(name === null ? {} : { 'x-document-name': name }) },
          body,
        });
        return { status: response.status, json: (await response.json()) as any };
      },
    };
  };
  return { app, url: base, as, close };
}

type Server = Awaited<ReturnType<typeof start>>;
let server: Server;
const alice = () => server.as(ALICE);
const bob = () => server.as(BOB);

const SEARCH = `query ($q: String!, $set: DocumentSetScope) {
  search(query: $q, first: 10, documentSet: $set) {
    results { paper { id title source } passages { chunkId field start end pageStart section } }
  }
}`;
const ASK = `query ($q: String!, $set: DocumentSetScope) {
  ask(question: $q, options: { documentSet: $set, externalSearch: false, useLlm: false }) {
    abstained answer
    sentences { citations { paper { id source } quote field start end page section sectionKind } }
    sufficiency { score band overruled dimensions { name score weight reason } }
  }
}`;
const SET = `query ($id: ID!) { documentSet(id: $id) { id expiresAt uploadPath documents { id name format title
  pageCount chunkCount references referencesResolved sections { title kind pageStart pageEnd } fullText } } }`;
const STATS = '{ stats { papers stubPapers chunks } }';

const idsOf = (result: any): string[] => result.data.search.results.map((r: any) => r.paper.id);

beforeAll(async () => {
  server = await start({ CITEGRAPH_API_KEYS: `alice:read:${ALICE},bob:read:${BOB}` });
  await removeCollections(server.app, OWN);
  await server.app.ingest.ingestFiles([writeSearchCorpus()], {
    embed: 'now',
    collection: 'doc-sets-shared',
    progress: false,
  });
});
afterAll(async () => {
  await removeCollections(server.app, OWN);
  await server.close();
});

describe('private document sets: two clients', () => {
  let setId: string;
  let statsBefore: any;

  beforeAll(async () => {
    statsBefore = (await alice().gql(STATS)).data.stats;
    const created = await alice().upload('/document-sets', 'lab-notes.md', fixture('lab-notes.md'), 'text/markdown');
    expect(created.status).toBe(201);
    setId = created.json.documentSet.id;
    expect(created.json.documentSet.uploadPath).toBe(`/document-sets/${setId}/documents`);
    const added = await alice().upload(
      created.json.documentSet.uploadPath,
      'sample-full-text.pdf',
      fixture('sample-full-text.pdf'),
      'application/pdf',
    );
    expect(added.status).toBe(200);
    expect(added.json.documentSet.documents).toHaveLength(2);
  });

  it('gives the creator the set with its documents, sections and pages', async () => {
    const { data } = await alice().gql(SET, { id: setId });
    const pdf = data.documentSet.documents.find((d: any) => d.name === 'sample-full-text.pdf');
    expect(pdf).toMatchObject({ format: 'pdf', pageCount: 3 });
    expect(pdf.title).toMatch(/^Differing effects of low-dose estrogen/);
    expect(pdf.chunkCount).toBeGreaterThan(0);
    expect(pdf.sections.map((s: any) => s.kind)).toEqual(expect.arrayContaining(['abstract', 'results']));
    const expires = Date.parse(data.documentSet.expiresAt) - Date.now();
    expect(expires).toBeGreaterThan(3500 * 1000); // the default TTL, one hour
    expect(expires).toBeLessThanOrEqual(3600 * 1000);
  });

  it('searches the set alone, with passages that slice from the stored text', async () => {
    const result = await alice().gql(SEARCH, {
      q: 'pravastatin LDL cholesterol postmenopausal women',
      set: { id: setId },
    });
    expect(result.errors).toBeUndefined();
    const ids = idsOf(result);
    expect(ids.length).toBe(2);
    expect(ids.every((id) => id.startsWith(`set:${setId}:`))).toBe(true);
    const top = result.data.search.results[0];
    expect(top.paper).toMatchObject({ source: 'document-set' });
    expect(top.paper.title).toMatch(/pravastatin/);
    const { data } = await alice().gql(SET, { id: setId });
    const text = data.documentSet.documents.find((d: any) => d.id === top.paper.id).fullText as string;
    for (const passage of top.passages) {
      expect(passage.field).toBe('text');
      expect(passage.pageStart).toBeGreaterThanOrEqual(1);
      expect(text.slice(passage.start, passage.end).length).toBe(passage.end - passage.start);
    }
  });

  it('searches the set together with the shared graph', async () => {
    const result = await alice().gql(SEARCH, {
      q: 'statins lower cholesterol',
      set: { id: setId, withSharedGraph: true },
    });
    const ids = idsOf(result);
    expect(ids.some((id) => id.startsWith(`set:${setId}:`))).toBe(true);
    expect(ids.some((id) => !id.startsWith('set:'))).toBe(true);
  });

  it('answers from the set alone with citations naming page and section, quotes slicing the stored text', async () => {
    const result = await alice().gql(ASK, {
      q: 'Did pravastatin lower LDL cholesterol more than estrogen-progestin therapy?',
      set: { id: setId },
    });
    expect(result.errors).toBeUndefined();
    expect(result.data.ask.abstained).toBe(false);
    expect(result.data.ask.answer).toMatch(/pravastatin/i);
    const citations = result.data.ask.sentences.flatMap((s: any) => s.citations);
    expect(citations.length).toBeGreaterThan(0);
    const { data } = await alice().gql(SET, { id: setId });
    const texts = new Map(data.documentSet.documents.map((d: any) => [d.id, d.fullText]));
    for (const citation of citations) {
      expect(citation.paper.id.startsWith(`set:${setId}:`)).toBe(true);
      expect(citation.paper.source).toBe('document-set');
      expect(citation.field).toBe('text');
      expect((texts.get(citation.paper.id) as string).slice(citation.start, citation.end)).toBe(citation.quote);
    }
    expect(citations.some((c: any) => c.page >= 1 && c.section)).toBe(true);
    // The set's own documents are not weighed by bibliographic metadata or years, and diversity is against its size.
    const dimensions = new Map<string, any>(result.data.ask.sufficiency.dimensions.map((d: any) => [d.name, d]));
    expect(dimensions.get('metadata_completeness').weight).toBe(0);
    expect(dimensions.get('recency').weight).toBe(0);
    expect(dimensions.get('source_diversity').reason).toMatch(/documents above the evidence floor \(of \d+ in the set/);
    expect(result.data.ask.sufficiency.overruled).toBeNull();
  });

  it('is invisible to another key: not listed, not searchable, not askable, not deletable', async () => {
    expect((await bob().gql(SET, { id: setId })).data.documentSet).toBeNull();
    expect((await bob().gql('{ documentSets { id } }')).data.documentSets).toEqual([]);
    const search = await bob().gql(SEARCH, { q: 'pravastatin LDL cholesterol', set: { id: setId } });
    expect(search.errors[0].extensions.code).toBe('NOT_FOUND');
    const ask = await bob().gql(ASK, { q: 'Did pravastatin lower LDL cholesterol?', set: { id: setId } });
    expect(ask.errors[0].extensions.code).toBe('NOT_FOUND');
    const upload = await bob().upload(
      `/document-sets/${setId}/documents`,
      'plain-notes.txt',
      fixture('plain-notes.txt'),
    );
    expect(upload.status).toBe(404);
    const deleted = await bob().gql('mutation ($id: ID!) { deleteDocumentSet(id: $id) }', { id: setId });
    expect(deleted.data.deleteDocumentSet).toBe(false);
    expect((await alice().gql(SET, { id: setId })).data.documentSet.documents).toHaveLength(2);
  });

  it('never enters the shared search, answers or stats, for anyone', async () => {
    for (const client of [alice(), bob()]) {
      const search = await client.gql(SEARCH, { q: 'pravastatin LDL cholesterol postmenopausal hypercholesterolemic' });
      expect(idsOf(search).length).toBeGreaterThan(0); // the shared graph answers; the set is not among it
      expect(idsOf(search).some((id) => id.startsWith('set:'))).toBe(false);
      const ask = await client.gql(ASK, { q: 'Did pravastatin lower LDL cholesterol in hypercholesterolemic women?' });
      const cited = ask.data.ask.sentences.flatMap((s: any) => s.citations.map((c: any) => c.paper.id));
      expect(cited.some((id: string) => id.startsWith('set:'))).toBe(false);
    }
    expect((await alice().gql(STATS)).data.stats).toEqual(statsBefore);
  });

  it('is gone, every node of it, after deleteDocumentSet', async () => {
    const deleted = await alice().gql('mutation ($id: ID!) { deleteDocumentSet(id: $id) }', { id: setId });
    expect(deleted.data.deleteDocumentSet).toBe(true);
    expect(await server.app.documentSets.nodeCount(setId)).toEqual({ sets: 0, documents: 0, chunks: 0 });
    expect((await alice().gql(SET, { id: setId })).data.documentSet).toBeNull();
  });
});

describe('private document sets: lifetime and caps', () => {
  it('expires after its TTL, and the sweeper deletes every node of it', async () => {
    // Long enough for the upload to finish on a loaded machine; the test then waits for the set's own expiry.
    const created = await alice().gql('mutation { createDocumentSet(ttlSeconds: 10) { id uploadPath expiresAt } }');
    const { id, uploadPath, expiresAt } = created.data.createDocumentSet;
    expect((await alice().upload(uploadPath, 'plain-notes.txt', fixture('plain-notes.txt'))).status).toBe(200);
    expect((await server.app.documentSets.nodeCount(id)).chunks).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(expiresAt) - Date.now()) + 200));
    expect(await server.app.documentSets.sweep()).toBeGreaterThanOrEqual(1);
    expect(await server.app.documentSets.nodeCount(id)).toEqual({ sets: 0, documents: 0, chunks: 0 });
    expect((await alice().gql(SET, { id })).data.documentSet).toBeNull();
  });

  it('refuses a TTL over the setting', async () => {
    const long = await alice().gql('mutation { createDocumentSet(ttlSeconds: 999999) { id } }');
    expect(long.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('refuses an upload without a file name, of an unknown format, or unreadable, and leaves no set behind', async () => {
    const before = (await alice().gql('{ documentSets { id } }')).data.documentSets.length;
    const unnamed = await alice().upload('/document-sets', null, fixture('plain-notes.txt'), 'text/plain');
    expect(unnamed.status).toBe(400);
    expect(unnamed.json.errors[0].message).toMatch(/X-Document-Name/);
    const unknown = await alice().upload('/document-sets', 'notes.docx', fixture('plain-notes.txt'));
    expect(unknown.status).toBe(400);
    const corrupt = await alice().upload('/document-sets', 'corrupt.pdf', fixture('corrupt.pdf'), 'application/pdf');
    expect(corrupt.status).toBe(400);
    expect(corrupt.json.errors[0].message).toMatch(/^corrupt\.pdf: corrupt/);
    const scanned = await alice().upload('/document-sets', 'scanned.pdf', fixture('scanned.pdf'), 'application/pdf');
    expect(scanned.json.errors[0].message).toMatch(/^scanned\.pdf: no-text/);
    expect((await alice().gql('{ documentSets { id } }')).data.documentSets).toHaveLength(before);
  });

  it('answers bad upload requests with JSON errors, and no preflight to a page of an unlisted origin', async () => {
    const badName = await alice().upload('/document-sets', '%E0%A4%A', fixture('plain-notes.txt'));
    expect(badName.status).toBe(400);
    expect(badName.json.errors[0].extensions.code).toBe('BAD_REQUEST');
    const url = server.url;
    const get = await fetch(`${url}/document-sets`, { headers: { authorization: `Bearer ${ALICE}` } });
    expect(get.status).toBe(405);
    expect(((await get.json()) as any).errors[0].extensions.code).toBe('BAD_REQUEST');
    const preflight = await fetch(`${url}/document-sets`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-document-name',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const anonymous = await server.as(null).upload('/document-sets', 'plain-notes.txt', fixture('plain-notes.txt'));
    expect(anonymous.status).toBe(401);
  });

  it('caps uploads by size and pages (settings)', async () => {
    const capped = await start({
      CITEGRAPH_API_KEYS: `alice:read:${ALICE}`,
      CITEGRAPH_DOCUMENT_SET_MAX_BYTES: '100000',
      CITEGRAPH_DOCUMENT_SET_MAX_PAGES: '2',
      CITEGRAPH_DOCUMENT_SET_MAX_SETS: '2',
    });
    try {
      const client = capped.as(ALICE);
      const large = await client.upload(
        '/document-sets',
        'big.pdf',
        fixture('two-column-paper.pdf'),
        'application/pdf',
      );
      expect(large.status).toBe(413);
      const pages = await client.upload(
        '/document-sets',
        'sample.pdf',
        fixture('sample-full-text.pdf'),
        'application/pdf',
      );
      expect(pages.status).toBe(400);
      expect(pages.json.errors[0].message).toMatch(/too-many-pages/);
      // The cap that applies is the sets' own, and the error names it.
      expect(pages.json.errors[0].message).toMatch(/CITEGRAPH_DOCUMENT_SET_MAX_PAGES/);
      const live = (await client.gql('{ documentSets { id } }')).data.documentSets.length;
      for (let i = live; i < 2; i += 1) await client.gql('mutation { createDocumentSet(ttlSeconds: 60) { id } }');
      const over = await client.gql('mutation { createDocumentSet(ttlSeconds: 60) { id } }');
      expect(over.errors[0].message).toMatch(/CITEGRAPH_DOCUMENT_SET_MAX_SETS/);
      for (const set of (await client.gql('{ documentSets { id } }')).data.documentSets) {
        await client.gql('mutation ($id: ID!) { deleteDocumentSet(id: $id) }', { id: set.id });
      }
    } finally {
      await capped.close();
    }
  });
});

describe('anonymous callers', () => {
  it('hold sets of their own on a loopback server without keys', async () => {
    const open = await start({});
    try {
      const created = await open.as(null).gql('mutation { createDocumentSet(ttlSeconds: 60) { id } }');
      expect(created.errors).toBeUndefined();
      const id = created.data.createDocumentSet.id;
      expect((await open.as(null).gql('{ documentSets { id } }')).data.documentSets.map((s: any) => s.id)).toContain(
        id,
      );
      expect((await open.as(null).gql('mutation ($id: ID!) { deleteDocumentSet(id: $id) }', { id })).data).toEqual({
        deleteDocumentSet: true,
      });
    } finally {
      await open.close();
    }
  });

  it('may not hold sets on a server open to other addresses', async () => {
    const open = await start({ CITEGRAPH_ALLOW_ANONYMOUS: 'true' }, '0.0.0.0');
    try {
      const created = await open.as(null).gql('mutation { createDocumentSet { id } }');
      expect(created.errors[0].extensions.code).toBe('FORBIDDEN');
      const upload = await open.as(null).upload('/document-sets', 'plain-notes.txt', fixture('plain-notes.txt'));
      expect(upload.status).toBe(403);
    } finally {
      await open.close();
    }
  });
});

describe('a saved web page in a private set', () => {
  it('answers "what is …?" with the definition its opening gives, cited into that opening, none of its chrome', async () => {
    const page = readFileSync(path.join(__dirname, '..', 'fixtures', 'web', 'wikipedia-mozilla.html'));
    const uploaded = await alice().upload('/document-sets', 'mozilla.html', page, 'text/html');
    expect(uploaded.status).toBe(201);
    const setId = uploaded.json.documentSet.id;
    const set = (await alice().gql(SET, { id: setId })).data.documentSet;
    const document = set.documents[0];
    expect(document.title).toBe('Mozilla');
    // The title alone is the front matter; the opening text is the Lead, the first section read.
    expect(document.sections.slice(0, 2)).toMatchObject([
      { title: 'Front matter', kind: 'front' },
      { title: 'Lead', kind: 'introduction' },
    ]);
    for (const chrome of ['Jump to', 'Privacy policy', '[edit]', 'Navigation menu'])
      expect(document.fullText).not.toContain(chrome);
    const { data } = await alice().gql(ASK, { q: 'What is Mozilla?', set: { id: setId } });
    expect(data.ask.abstained).toBe(false);
    expect(data.ask.answer).toMatch(
      /^Mozilla is a free-software community, created in 1998 by members of Netscape \[1\]\./,
    );
    const citation = data.ask.sentences[0].citations[0];
    expect(citation.section).toBe('Lead');
    // The quote slices exactly out of the stored text, at the offsets it gives.
    expect(document.fullText.slice(citation.start, citation.end)).toBe(citation.quote);
    await alice().gql('mutation ($id: ID!) { deleteDocumentSet(id: $id) }', { id: setId });
  });
});
