/**
 * A streamed piece of work (an answer, a report) as an async generator: runs `work`, yields the events it pushes as they
 * come, and returns its result once every event pushed before the end is out — or throws its error after them.
 */
export async function* pumpEvents<E, R>(work: (push: (...events: E[]) => void) => Promise<R>): AsyncGenerator<E, R> {
  const queue: E[] = [];
  let wake: (() => void) | null = null;
  let outcome: { value: R } | { error: Error } | null = null;
  const running = work((...events) => {
    queue.push(...events);
    wake?.();
  })
    .then(
      (value) => {
        outcome = { value };
      },
      (error: unknown) => {
        outcome = { error: error instanceof Error ? error : new Error(String(error)) };
      },
    )
    .finally(() => wake?.());
  for (;;) {
    while (queue.length > 0) yield queue.shift()!;
    if (outcome) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = null;
  }
  await running;
  const done = outcome as { value: R } | { error: Error };
  if ('error' in done) throw done.error;
  return done.value;
}

/**
 * The events of `pump`, each wrapped by `wrap`, then its result. `onLeave` runs when the consumer stops early (a client
 * that disconnected): the work done for it should stop.
 */
export async function* relayEvents<E, R, W>(
  pump: AsyncGenerator<E, R>,
  wrap: (event: E) => W,
  onLeave: () => void,
): AsyncGenerator<W, R> {
  let ended = false;
  try {
    for (;;) {
      const next = await pump.next();
      if (next.done) {
        ended = true;
        return next.value;
      }
      yield wrap(next.value);
    }
  } catch (error) {
    ended = true;
    throw error;
  } finally {
    if (!ended) onLeave();
  }
}
