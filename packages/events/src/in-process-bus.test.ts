import { describeEventBusContract } from './event-bus.contract';
import { createInProcessBus } from './in-process-bus';

describeEventBusContract('in-process', async () => {
  const bus = createInProcessBus();
  return { bus, teardown: () => bus.close() };
});
