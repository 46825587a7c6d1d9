import { baseConfigSchema } from '@workspace/kit';
import { z } from 'zod';
import { DEFAULT_REGION, REGIONS } from './domain/index.js';

const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((value) => value === 'true');

export const driveConfigSchema = baseConfigSchema.extend({
  /** Identity's base URL: the tenant's region and storage tier, and colleagues' names. */
  IDENTITY_URL: z.url(),
  /**
   * The region this release serves (deploy/k8s/README.md): its objects go only to this region's object store, and a
   * tenant of another region is refused.
   */
  DRIVE_REGION: z.enum(REGIONS).default(DEFAULT_REGION),
  /** The region's object store (S3 API; MinIO), as the service reaches it. */
  OBJECT_STORE_URL: z.url(),
  /**
   * The object store as browsers reach it (presigned upload and download URLs are made for this origin; the bff's
   * CSP allows it). Default: OBJECT_STORE_URL.
   */
  OBJECT_STORE_PUBLIC_URL: z.url().optional(),
  OBJECT_STORE_ACCESS_KEY: z.string().min(3),
  OBJECT_STORE_SECRET_KEY: z.string().min(8),
  /** The S3 signing region of the object store (MinIO's default). */
  OBJECT_STORE_SIGNING_REGION: z.string().min(1).default('us-east-1'),
  /** The region's bucket; default workspace-drive-<region>. */
  OBJECT_STORE_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'Must be an S3 bucket name')
    .optional(),
  /** How long a presigned URL (an upload part, a download) stays valid, in seconds. */
  PRESIGN_EXPIRY_SECONDS: z.coerce.number().int().min(60).max(604_800).default(3_600),
  /** How long an upload grant may stay unregistered before its parts are removed. */
  UPLOAD_GRANT_TTL_MS: z.coerce
    .number()
    .int()
    .min(10_000)
    .default(6 * 3_600_000),
  /** How often abandoned uploads are cleaned up. */
  UPLOAD_CLEANUP_INTERVAL_MS: z.coerce.number().int().min(100).default(600_000),
  /** drive.md §4: soft delete releases the file's storage from the quota (restore takes it again). */
  FREE_SPACE_ON_SOFT_DELETE: flag('true'),
  /** drive.md §4: module drives are provisioned on first use when the user may create or manage drives. */
  AUTO_PROVISION_MODULE_DRIVES: flag('true'),
  /** Wrong passcodes a share link takes before it locks. */
  SHARE_PASSCODE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  /** drive.md §5's configured upload.maxFileSize, in bytes (§9: 5 GiB, also the most a browser upload can be). */
  UPLOAD_MAX_FILE_SIZE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(5 * 1024 ** 3)
    .default(5 * 1024 ** 3),
  /**
   * drive.md §5's configured upload.allowedFileTypes: comma-separated MIME types ('application/pdf', 'image/*'),
   * extensions ('.pdf' or 'pdf'), or '*' for every type (the default).
   */
  UPLOAD_ALLOWED_FILE_TYPES: z
    .string()
    .default('*')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    ),
  /** How often the thumbnail worker looks for images and PDFs without a thumbnail (it is also woken by changes). */
  THUMBNAIL_POLL_MS: z.coerce.number().int().min(100).default(60_000),
  /** The largest PDF the sign route stamps (it is read and rewritten in memory), in MB (ADR 0048). */
  SIGNATURE_MAX_PDF_MB: z.coerce.number().int().min(1).max(1024).default(100),
});

export type DriveConfig = z.infer<typeof driveConfigSchema>;

export const driveBucket = (config: DriveConfig): string =>
  config.OBJECT_STORE_BUCKET ?? `workspace-drive-${config.DRIVE_REGION}`;
