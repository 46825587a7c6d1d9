import { DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';

describe('a release serves its own region only', () => {
  let h: DriveHarness;
  beforeAll(async () => {
    h = await startDriveHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('answers a tenant of its region', async () => {
    const answer = await h.call(await h.token(DRIVE_ADMIN_SCOPES), 'GET', '/me/abilities');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ region: 'uk', abilities: { canUpload: true, canManageAll: true } });
  });

  it('refuses a tenant of another region, naming its region (acme lives in eu)', async () => {
    const answer = await h.call(await h.token(DRIVE_ADMIN_SCOPES, 'acme'), 'GET', '/me/abilities');
    expect(answer.status).toBe(421);
    expect(answer.body).toMatchObject({ code: 'wrong_region' });
    expect(answer.body.detail).toBe(
      'This organisation’s data lives in region eu; this is the uk drive. Use the eu service.',
    );
  });
});
