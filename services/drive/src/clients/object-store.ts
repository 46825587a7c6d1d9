import type { Readable } from 'node:stream';
import { Client, type BucketItem, type BucketItemStat } from 'minio';
import { driveBucket, type DriveConfig } from '../config.js';

/** A part of a multipart upload as the object store holds it. */
export interface StoredPart {
  part: number;
  etag: string;
  size: number;
}

/** The minio client with the part listing it keeps to itself (the service, not the browser, says which parts exist). */
class PartListingClient extends Client {
  parts(bucket: string, key: string, uploadId: string): Promise<StoredPart[]> {
    return this.listParts(bucket, key, uploadId);
  }
}

const clientFor = (url: string, config: DriveConfig) => {
  const endpoint = new URL(url);
  return new PartListingClient({
    endPoint: endpoint.hostname,
    port: endpoint.port ? Number(endpoint.port) : endpoint.protocol === 'https:' ? 443 : 80,
    useSSL: endpoint.protocol === 'https:',
    accessKey: config.OBJECT_STORE_ACCESS_KEY,
    secretKey: config.OBJECT_STORE_SECRET_KEY,
    // A set region spares every call (and every presigned URL) a bucket-location lookup.
    region: config.OBJECT_STORE_SIGNING_REGION,
    pathStyle: true,
  });
};

/**
 * The region's bucket, through the `minio` client only (design §2). Presigned URLs are made for the origin browsers
 * use (OBJECT_STORE_PUBLIC_URL); everything else goes to the service's own address.
 */
export class ObjectStore {
  readonly bucket: string;
  private readonly client: PartListingClient;
  private readonly publicClient: PartListingClient;

  constructor(private readonly config: DriveConfig) {
    this.bucket = driveBucket(config);
    this.client = clientFor(config.OBJECT_STORE_URL, config);
    this.publicClient = clientFor(config.OBJECT_STORE_PUBLIC_URL ?? config.OBJECT_STORE_URL, config);
  }

  /** Makes the region's bucket if it is missing: once per process, tried again after a failure. */
  ensureBucket(): Promise<void> {
    this.bucketReady ??= this.makeBucket().catch((error: unknown) => {
      this.bucketReady = undefined;
      throw error;
    });
    return this.bucketReady;
  }

  private bucketReady: Promise<void> | undefined;

  private async makeBucket(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    await this.client
      .makeBucket(this.bucket, this.config.OBJECT_STORE_SIGNING_REGION)
      .catch(async (error: unknown) => {
        // Another replica made it first.
        if (!(await this.client.bucketExists(this.bucket))) throw error;
      });
  }

  async ping(): Promise<boolean> {
    try {
      await this.client.bucketExists(this.bucket);
      return true;
    } catch {
      return false;
    }
  }

  startMultipart(key: string, contentType: string): Promise<string> {
    return this.client.initiateNewMultipartUpload(this.bucket, key, { 'Content-Type': contentType });
  }

  /** A URL the browser PUTs one part to (parts are numbered from 1). */
  presignPart(key: string, uploadId: string, partNumber: number): Promise<string> {
    return this.publicClient.presignedUrl('PUT', this.bucket, key, this.config.PRESIGN_EXPIRY_SECONDS, {
      partNumber: String(partNumber),
      uploadId,
    });
  }

  parts(key: string, uploadId: string): Promise<StoredPart[]> {
    return this.client.parts(this.bucket, key, uploadId);
  }

  completeMultipart(key: string, uploadId: string, parts: readonly StoredPart[]): Promise<unknown> {
    return this.client.completeMultipartUpload(
      this.bucket,
      key,
      uploadId,
      parts.map(({ part, etag }) => ({ part, etag })),
    );
  }

  abortMultipart(key: string, uploadId: string): Promise<void> {
    return this.client.abortMultipartUpload(this.bucket, key, uploadId);
  }

  /** The stored object's size and type, or undefined when there is none. */
  async stat(key: string): Promise<BucketItemStat | undefined> {
    try {
      return await this.client.statObject(this.bucket, key);
    } catch (error) {
      if (
        (error as { code?: string }).code === 'NotFound' ||
        (error as { code?: string }).code === 'NoSuchKey'
      ) {
        return undefined;
      }
      throw error;
    }
  }

  read(key: string, range?: { offset: number; length?: number }): Promise<Readable> {
    return range
      ? this.client.getPartialObject(this.bucket, key, range.offset, range.length)
      : this.client.getObject(this.bucket, key);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.putObject(this.bucket, key, body, body.length, { 'Content-Type': contentType });
  }

  /** A URL the browser GETs the object from, saved under `fileName` (attachment) or shown inline. */
  presignGet(
    key: string,
    fileName: string,
    disposition: 'attachment' | 'inline' = 'attachment',
  ): Promise<string> {
    const encoded = encodeURIComponent(fileName).replace(
      /['()*]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    );
    return this.publicClient.presignedGetObject(this.bucket, key, this.config.PRESIGN_EXPIRY_SECONDS, {
      'response-content-disposition': `${disposition}; filename*=UTF-8''${encoded}`,
    });
  }

  async remove(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += 1000) {
      const batch = keys.slice(start, start + 1000);
      const [only] = batch;
      if (batch.length === 1 && only !== undefined) await this.client.removeObject(this.bucket, only);
      else if (batch.length > 1) await this.client.removeObjects(this.bucket, batch);
    }
  }

  /** Every object under `prefix` (the sweep). */
  async *list(prefix: string): AsyncGenerator<BucketItem> {
    for await (const item of this.client.listObjectsV2(
      this.bucket,
      prefix,
      true,
    ) as AsyncIterable<BucketItem>) {
      yield item;
    }
  }

  /** Copies an object within the bucket (a restored version's bytes; at most 5 GiB, the drive's largest file). */
  async copy(from: string, to: string): Promise<void> {
    await this.client.copyObject(this.bucket, to, `/${this.bucket}/${from}`);
  }
}
