import { busContractSuite } from './contract-suite.js';
import { createMemoryBroker } from './memory.js';

const quiet = { info() {}, warn() {}, error() {} };

busContractSuite('memory', async () => {
  const broker = createMemoryBroker({ log: quiet });
  return {
    connect: async () => broker.connect(),
    teardown: async () => {},
  };
});
