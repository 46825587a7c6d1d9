import { ServiceClient, type Logger } from '@workspace/kit';
import type { CisDocumentKind } from '../domain/index.js';

/** A document cis hands over: its bytes, the name of its download, which version of it this is, its tax month. */
export interface CisDocument {
  bytes: Buffer;
  fileName: string;
  mimeType: string;
  /** A statement's id (an issued statement never changes); a return's IRmark (a resubmission has another). */
  ref: string;
  taxMonth: string;
}

const fileNameOf = (disposition: string | null, fallback: string): string =>
  /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback;

/** cis, for the documents the drive files (ADR 0046): its one internal route, with the shared documents token. */
export class CisClient {
  private readonly client: ServiceClient;

  constructor(baseUrl: string, token: string, logger: Logger) {
    this.client = new ServiceClient({
      service: 'cis',
      baseUrl,
      timeoutMs: 30_000,
      logger,
      internalToken: token,
      failure: { detail: 'The CIS service refused the request.' },
    });
  }

  /**
   * An issued statement's PDF or a submitted return's CIS300 XML; undefined when cis has no such document in the
   * tenant (not issued or submitted, or not this region's). Throws when cis does not answer or refuses otherwise.
   */
  async document(kind: CisDocumentKind, tenantId: string, id: string): Promise<CisDocument | undefined> {
    const response = await this.client.open('GET', {
      path: `/v1/internal/drive-documents/${kind}s/${encodeURIComponent(id)}`,
      query: { tenantId },
      caller: 'internal',
    });
    if (response.status === 404) {
      await response.body?.cancel();
      return undefined;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`cis answered ${String(response.status)} for ${kind} ${id}`);
    }
    return {
      bytes: Buffer.from(await response.arrayBuffer()),
      fileName: fileNameOf(response.headers.get('content-disposition'), `${kind}-${id}`),
      mimeType:
        (response.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]?.trim() ?? '',
      ref: response.headers.get('x-document-ref') ?? id,
      taxMonth: response.headers.get('x-tax-month') ?? '',
    };
  }
}
