// An in-process invalidation bus whose caughtUp() answers only when the test says, as the
// LISTEN/NOTIFY bus waits on its round trip: lets a test put a notice "in transit" and decide
// whether the bus caught up with it.
import { createLocalInvalidationBus, invalidationBus, setInvalidationBus, type InvalidationBus } from '../lib/invalidation-bus';

export async function withHeldCatchUp(run: (bus: InvalidationBus, answer: (heard: boolean) => void) => Promise<void>): Promise<void> {
  const previous = invalidationBus();
  const bus = createLocalInvalidationBus();
  let answer: (heard: boolean) => void = () => {};
  bus.caughtUp = () => new Promise<boolean>((resolve) => (answer = resolve));
  setInvalidationBus(bus);
  try {
    await run(bus, (heard) => answer(heard));
  } finally {
    setInvalidationBus(previous);
  }
}
