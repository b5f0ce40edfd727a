import { Progress } from '../../src/ingest/progress';

describe('progress of long work', () => {
  it('gives the rate and, with the share done, the time left', () => {
    expect(Progress.line('works.jsonl:', 1200, 'records', 15, 0.4)).toBe(
      'works.jsonl: 1200 records (80.0/s, 15s, 40% done, about 23s left)',
    );
    expect(Progress.line('embedding:', 500, 'chunks', 125, undefined)).toBe('embedding: 500 chunks (4.0/s, 2m05s)');
    expect(Progress.duration(7384)).toBe('2h03m');
  });

  it('redraws one line on a terminal, five times a second at most, and clears it at the end', () => {
    const written: string[] = [];
    let clock = 0;
    const progress = new Progress(
      true,
      true,
      (text) => written.push(text),
      () => clock,
    );
    clock = 250;
    progress.update('x:', 10, 'records', 0.5);
    clock = 300;
    progress.update('x:', 11, 'records', 0.55); // too soon: skipped
    progress.done();
    expect(written).toEqual(['\r\x1b[Kx: 10 records (40.0/s, 0s, 50% done, about 0s left)', '\r\x1b[K']);
  });

  it('prints plain lines every ten seconds in a log, and nothing when off', () => {
    const written: string[] = [];
    let clock = 0;
    const progress = new Progress(
      true,
      false,
      (text) => written.push(text),
      () => clock,
    );
    for (clock = 1_000; clock <= 25_000; clock += 1_000) progress.update('x:', clock / 100, 'records');
    progress.done();
    expect(written).toEqual(['x: 100 records (10.0/s, 10s)\n', 'x: 200 records (10.0/s, 20s)\n']);
    const silent: string[] = [];
    new Progress(
      false,
      false,
      (text) => silent.push(text),
      () => 50_000,
    ).update('x:', 1, 'records');
    expect(silent).toEqual([]);
  });
});
