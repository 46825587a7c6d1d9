import { readdirSync } from 'node:fs';
import { identityMigrations } from '../migrations/index.js';

// knex records each applied migration by its `name`: a database made by `make up` or a deployment upgrades only if
// the names it has already applied keep meaning the same change, in the same order.
const applied = [
  '001_identity',
  '002_tenant_footer',
  '003_tenant_logo',
  '004_session_hardening',
  '005_user_keys',
  '006_rate_limits',
  '007_owner_only_cleanup',
  '008_portal_link_requests',
];

describe('identity migrations', () => {
  it('keep the names already applied, in their order, and only append', () => {
    expect(identityMigrations.map((migration) => migration.name).slice(0, applied.length)).toEqual(applied);
  });

  it('list every migration file once, named after its file, in file order', () => {
    const files = readdirSync(new URL('../migrations/', import.meta.url))
      .filter((file) => /^\d{3}_.*\.ts$/.test(file))
      .map((file) => file.replace(/\.ts$/, ''))
      .sort();
    expect(identityMigrations.map((migration) => migration.name)).toEqual(files);
  });
});
