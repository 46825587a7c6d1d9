import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

describe('tracing', () => {
  it('exports spans over OTLP/HTTP when an endpoint is configured', async () => {
    const received: { path: string; body: Buffer }[] = [];
    const collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const address = collector.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const app = fileURLToPath(new URL('./fixtures/traced-app.ts', import.meta.url));
      await run('node', ['--conditions=development', '--import', 'tsx', app], {
        env: { ...process.env, NODE_OPTIONS: '', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` },
        timeout: 60_000,
      });
    } finally {
      collector.close();
    }
    const traces = received.filter((request) => request.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    const body = Buffer.concat(traces.map((request) => request.body)).toString('latin1');
    expect(body).toContain('traced-app');
    expect(body).toContain('/traced');
  });
});
