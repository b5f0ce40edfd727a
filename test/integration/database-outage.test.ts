import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { loadSettings } from '../../src/config/settings';
import { ErrorCode } from '../../src/errors';
import { DatabaseMonitor } from '../../src/graph/database-monitor';
import { GraphExecutor } from '../../src/graph/executor';
import { queries } from '../../src/graph/query-registry';
import { createTestContext } from '../helpers/context';

/**
 * A hung database (a stopped process still accepts TCP connections and then says nothing) is failed fast: the health
 * monitor's probes, on a connection of their own, declare an outage after two misses, and from then on work fails at
 * once with DATABASE_UNAVAILABLE — work already waiting on the database too — until a probe is answered again.
 */
describe('a database that does not answer', () => {
  let silent: Server;
  const sockets: Socket[] = [];
  let port = 0;

  beforeAll(async () => {
    // Accepts Bolt connections and never answers the handshake: what a SIGSTOPped Neo4j looks like from outside.
    silent = createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    port = (silent.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('is declared down by the monitor after two probes, and work then fails at once with DATABASE_UNAVAILABLE', async () => {
    const settings = loadSettings({ NEO4J_URI: `bolt://127.0.0.1:${port}`, NEO4J_PASSWORD: 'x' });
    const executor = new GraphExecutor(settings.neo4j);
    const monitor = new DatabaseMonitor(executor, 300, 300);
    try {
      expect(executor.available).toBe(true);
      monitor.start();
      for (let waited = 0; executor.available && waited < 10_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(executor.available).toBe(false);
      expect((await monitor.current()).reachable).toBe(false);
      const started = Date.now();
      await expect(executor.read(queries().health({}))).rejects.toMatchObject({
        code: ErrorCode.DATABASE_UNAVAILABLE,
        retryable: true,
      });
      // At once: no connection attempt, no acquisition timeout.
      expect(Date.now() - started).toBeLessThan(settings.neo4j.acquireTimeoutMs);
    } finally {
      monitor.stop();
      await executor.close();
    }
  });
});

describe('an outage declared while work waits on the database', () => {
  const { app } = createTestContext();
  afterAll(() => app.close());

  it('fails that work with DATABASE_UNAVAILABLE, and new work until the database answers again', async () => {
    const slow = app.executor.read({
      name: 'slow-count',
      text: 'UNWIND range(1, 200000000) AS x RETURN count(x) AS n',
      params: {},
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    app.executor.setAvailability(false, 'no answer within 2000 ms');
    await expect(slow).rejects.toMatchObject({ code: ErrorCode.DATABASE_UNAVAILABLE });
    await expect(app.executor.read(queries().health({}))).rejects.toMatchObject({
      code: ErrorCode.DATABASE_UNAVAILABLE,
    });
    app.executor.setAvailability(true);
    expect(await app.executor.read(queries().health({}))).toHaveLength(1);
  });
});
