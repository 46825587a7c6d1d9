// drive.md §9 regions: each release's own bucket, named after its region unless OBJECT_STORE_BUCKET says otherwise.
import { driveBucket, driveConfigSchema } from '../src/config.js';

const env = {
  DATABASE_URL: 'postgres://svc_drive:drive@127.0.0.1:5432/workspace',
  IDENTITY_URL: 'http://identity.test',
  OBJECT_STORE_URL: 'http://minio.test:9000',
  OBJECT_STORE_ACCESS_KEY: 'drive',
  OBJECT_STORE_SECRET_KEY: 'drive-secret',
};

describe('the drive release’s region and bucket', () => {
  it('serves uk by default, in the bucket workspace-drive-uk', () => {
    const config = driveConfigSchema.parse(env);
    expect(config.DRIVE_REGION).toBe('uk');
    expect(driveBucket(config)).toBe('workspace-drive-uk');
  });

  it('names each region’s bucket after it: workspace-drive-eu, workspace-drive-us, workspace-drive-uk', () => {
    const buckets = ['eu', 'us', 'uk'].map((region) =>
      driveBucket(driveConfigSchema.parse({ ...env, DRIVE_REGION: region })),
    );
    expect(buckets).toEqual(['workspace-drive-eu', 'workspace-drive-us', 'workspace-drive-uk']);
  });

  it('takes OBJECT_STORE_BUCKET over the region’s name, and refuses a region it does not know', () => {
    const config = driveConfigSchema.parse({
      ...env,
      DRIVE_REGION: 'eu',
      OBJECT_STORE_BUCKET: 'eu-drive-files',
    });
    expect(driveBucket(config)).toBe('eu-drive-files');
    expect(driveConfigSchema.safeParse({ ...env, DRIVE_REGION: 'fr' }).success).toBe(false);
  });
});
