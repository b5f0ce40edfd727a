/**
 * Writes that run behind the work feeding them, one at a time and in order: `push` waits for the previous write, then
 * starts the next and returns while it runs; `drain` waits for the last. A failed write surfaces at the next `push` or
 * at `drain`; `settle` waits for the running write without raising (before reporting another failure, so that no
 * write continues after the caller hears of it).
 */
export class WriteBehind {
  private running: Promise<void> = Promise.resolve();

  async push(write: () => Promise<void>): Promise<void> {
    await this.running;
    this.running = write();
    this.running.catch(() => undefined); // raised where it is awaited
  }

  drain(): Promise<void> {
    return this.running;
  }

  settle(): Promise<void> {
    return this.running.catch(() => undefined);
  }
}
