// PostgreSQL breaks a deadlock by aborting one of the transactions in the cycle (SQLSTATE 40P01).
// A delete that cascades (a personality to its documents and chunks) can meet a background job
// that holds a document row and waits for the personality's key: one of the two is the victim.
// The job retries on its own; a person's delete must not become a 500 for it, so the statement
// is run again (its transaction was rolled back whole, so running it again is safe).
import { isDeadlock } from '../lib/errors';

export async function retryOnDeadlock<T>(run: () => PromiseLike<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!isDeadlock(err) || attempt >= attempts) throw err;
      // A short, growing pause lets the other transaction (now holding what we waited for) finish.
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}
