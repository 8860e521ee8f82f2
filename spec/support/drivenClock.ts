import { VirtualTimeScheduler } from "rxjs";

/**
 * A clock the spec drives, for code that awaits promises between its
 * scheduled tasks (the adapter hands Carbon a chunk and waits for its
 * promise): an rxjs `VirtualTimeScheduler` whose time moves only in
 * `runUntil` and `settle`, one scheduled task at a time, as the tasks of a
 * real scheduler are. Between two tasks, what the first set off runs: its
 * promise callbacks and the 0 ms tasks they queue (the async scheduler's);
 * then the clock moves to the next task's time and runs it. Nothing waits for
 * real time to pass, so every run interleaves the same way.
 */
export class DrivenClock extends VirtualTimeScheduler {
  /** Runs the clock until `condition` holds; throws when it cannot (nothing is scheduled, nothing else is under way) or after `maxTasks` tasks (work that keeps rescheduling itself). */
  async runUntil(condition: () => boolean, maxTasks = 2_000): Promise<void> {
    for (let tasks = 0, idle = 0; ; ) {
      await nextMacrotask();
      await nextMacrotask();
      if (condition()) return;
      const task = this.actions.shift();
      if (!task) {
        // Work that takes a few macrotasks before it schedules again (a promise chain that ends in a setTimeout(0)).
        if (++idle > 20) throw new Error(`DrivenClock: nothing is scheduled at ${this.now()} ms and the condition does not hold`);
        continue;
      }
      if (++tasks > maxTasks) throw new Error(`DrivenClock: the condition does not hold after ${maxTasks} tasks (at ${this.now()} ms)`);
      idle = 0;
      // What VirtualTimeScheduler.flush() does for each task, for one.
      this.frame = task.delay;
      const error: unknown = task.execute(task.state, task.delay);
      if (error) throw error;
    }
  }

  /** Runs the clock until `promise` settles, and returns it. */
  async settle<T>(promise: Promise<T>): Promise<T> {
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    await this.runUntil(() => settled);
    return promise;
  }
}

// setTimeout(0), not setImmediate: Node runs timers of one duration in the order they were set, so a 0 ms task the
// code under test queued before the second of these (the async scheduler's) has run when the clock moves on.
const nextMacrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
