import { backoffMs, retryAfterMs } from '../../src/external/provider-base';
import { ResponseCache } from '../../src/external/response-cache';
import { normaliseTitle } from '../../src/external/merge';
import { mapCrossrefWork, stripJats } from '../../src/external/crossref-client';
import { pageRange } from '../../src/external/scholarly-client';

describe('HTTP helpers', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('0')).toBe(0);
    const now = Date.parse('2026-12-02T12:00:00Z');
    expect(retryAfterMs('Wed, 02 Dec 2026 12:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped', () => {
    expect(backoffMs(0, 100, 10_000, () => 0)).toBe(50);
    expect(backoffMs(0, 100, 10_000, () => 1)).toBe(100);
    expect(backoffMs(3, 100, 10_000, () => 1)).toBe(800);
    expect(backoffMs(20, 100, 10_000, () => 1)).toBe(10_000);
  });

  it('expires cached responses and bounds the cache', () => {
    let now = 0;
    const cache = new ResponseCache(1000, 2, () => now);
    cache.set('a', 1);
    cache.set('b', null);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('b')).toBeNull();
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    now = 1001;
    expect(cache.get('c')).toBeUndefined();
  });
});

describe('mapping helpers', () => {
  it('normalises titles for matching', () => {
    expect(normaliseTitle('Deep Learning — a Review!')).toBe(normaliseTitle('deep learning: a review'));
    expect(normaliseTitle('Short')).toBeNull();
  });

  it('strips JATS from Crossref abstracts and maps a minimal work', () => {
    expect(
      stripJats('<jats:title>Abstract</jats:title><jats:p>Dopamine <jats:italic>in vivo</jats:italic>.</jats:p>'),
    ).toBe('Dopamine in vivo .');
    const work = mapCrossrefWork({
      DOI: '10.1000/ABC',
      title: ['T'],
      issued: { 'date-parts': [[2020, 5]] },
      reference: [{ DOI: '10.2000/x' }, { key: 'no-doi' }],
      volume: '12',
      issue: '3',
      page: '314–320',
      language: 'en',
      license: [
        { URL: 'https://example.org/tdm', 'content-version': 'tdm' },
        { URL: 'http://creativecommons.org/licenses/by/4.0/', 'content-version': 'vor' },
      ],
    });
    expect(work).toMatchObject({
      id: 'doi:10.1000/abc',
      year: 2020,
      publicationDate: '2020-05',
      references: ['doi:10.2000/x'],
      volume: '12',
      issue: '3',
      firstPage: '314',
      lastPage: '320',
      language: 'en',
      license: 'http://creativecommons.org/licenses/by/4.0/',
    });
    expect(pageRange('e1234')).toEqual({ firstPage: 'e1234', lastPage: null });
    expect(pageRange('S1 - S10')).toEqual({ firstPage: 'S1', lastPage: 'S10' });
    expect(pageRange('pp. 1, 4')).toEqual({ firstPage: null, lastPage: null });
    expect(mapCrossrefWork({ title: ['no doi'] })).toBeNull();
  });
});
