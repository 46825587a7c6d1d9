import type { AddressInfo } from 'node:net';
import { baseConfigSchema } from '@workspace/kit';
import { startBff } from '../src/app.js';
import { testBffConfig } from './support.js';

// Review L19: `make up` listened on every interface, in front of a database that trusts every local connection.
// The address is LISTEN_HOST: every interface in a container (the default), loopback where the embedded runner
// sets it.

describe('LISTEN_HOST', () => {
  it('is every interface by default (a container)', () => {
    expect(baseConfigSchema.shape.LISTEN_HOST.parse(undefined)).toBe('0.0.0.0');
  });

  it.each([['127.0.0.1'], ['0.0.0.0']])('is the address the ports listen on: %s', async (host) => {
    const running = await startBff(testBffConfig('http://127.0.0.1:9', { LISTEN_HOST: host }));
    try {
      expect((running.server.address() as AddressInfo).address).toBe(host);
    } finally {
      await running.shutdown('test');
    }
  });
});
