import type { SinkMessage } from './sink.js';

/** The SMTP sink's HTTP API, for tests (this service's and others') and scripts. */
export class SmtpSinkClient {
  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  private async call(method: string, path: string, body?: unknown): Promise<Response> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    if (!response.ok) {
      throw new Error(`SMTP sink ${method} ${path} answered ${response.status}: ${await response.text()}`);
    }
    return response;
  }

  /** Every message the sink keeps, oldest first. */
  async messages(): Promise<SinkMessage[]> {
    return (await (await this.call('GET', '/messages')).json()) as SinkMessage[];
  }

  /** Polls until a message matches, or fails after `timeoutMs` naming what it saw. */
  async waitForMessage(
    predicate: (message: SinkMessage) => boolean,
    timeoutMs = 10_000,
  ): Promise<SinkMessage> {
    const deadline = Date.now() + timeoutMs;
    let seen: SinkMessage[] = [];
    while (Date.now() < deadline) {
      seen = await this.messages();
      const found = seen.find(predicate);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(
      `No matching message in the SMTP sink after ${timeoutMs} ms; it holds ${seen.length}: ` +
        JSON.stringify(seen.map((message) => ({ to: message.to, subject: message.subject }))),
    );
  }

  /** An attachment's bytes. */
  async attachment(messageId: string, index: number): Promise<Buffer> {
    const response = await this.call(
      'GET',
      `/messages/${encodeURIComponent(messageId)}/attachments/${index}`,
    );
    return Buffer.from(await response.arrayBuffer());
  }

  async clear(): Promise<void> {
    await this.call('DELETE', '/messages');
  }

  /** Refuse the next `count` messages with `code` (451: temporary, the sender retries; 550: permanent). */
  async failNext(count: number, code = 451): Promise<void> {
    await this.call('POST', '/control/fail', { count, code });
  }

  /** Refuse every message for `ms` milliseconds. */
  async failFor(ms: number, code = 451): Promise<void> {
    await this.call('POST', '/control/fail', { forMs: ms, code });
  }

  /** Accept messages again. */
  async recover(): Promise<void> {
    await this.call('DELETE', '/control/fail');
  }
}
