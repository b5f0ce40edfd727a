import { closestNames, graphId, nameQuery } from '../../src/text';

describe('ids and names as users type them', () => {
  it('reads OpenAlex ids in any case and as URLs, and leaves other ids alone', () => {
    expect(graphId('https://openalex.org/W2125158795')).toBe('W2125158795');
    expect(graphId('http://api.openalex.org/works/w2125158795')).toBe('W2125158795');
    expect(graphId(' a5048491430 ')).toBe('A5048491430');
    expect(graphId('s127492747')).toBe('S127492747');
    // Namespaced ids of corpora without global ids, DOIs and anonymous authors are kept as given.
    expect(graphId('scifact:4983')).toBe('scifact:4983');
    expect(graphId('doi:10.1000/abc1')).toBe('doi:10.1000/abc1');
    expect(graphId('anon:W1:0')).toBe('anon:W1:0');
  });

  it('turns typed text into a name query Lucene cannot misread', () => {
    expect(nameQuery('Breast canc')).toBe('"breast canc"^4 OR (breast* AND canc*)');
    expect(nameQuery('AND (x) OR "y"*')).toBe('"and x or y"^4 OR (and* AND x* AND or* AND y*)');
    expect(nameQuery(' -- ')).toBeNull();
  });

  it('names the closest known collections', () => {
    const known = ['Nelson_2002', 'Chou_2004', 'scifact', 'van_der_Valk_2021'];
    expect(closestNames('nelson-2002', known)).toEqual(['Nelson_2002']);
    expect(closestNames('chou2003', known)).toEqual(['Chou_2004']);
    expect(closestNames('entirely different', known)).toEqual([]);
  });
});
