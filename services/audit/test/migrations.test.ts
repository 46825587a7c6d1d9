import { readdirSync } from 'node:fs';
import { auditMigrations } from '../migrations/index.js';

// knex records each applied migration by its `name`: a database made by `make up` or a deployment upgrades only if
// the names it has already applied keep meaning the same change, in the same order.
const applied = ['001_audit'];

describe('audit migrations', () => {
  it('keep the names already applied, in their order, and only append', () => {
    expect(auditMigrations.map((migration) => migration.name).slice(0, applied.length)).toEqual(applied);
  });

  it('list every migration file once, named after its file, in file order', () => {
    const files = readdirSync(new URL('../migrations/', import.meta.url))
      .filter((file) => /^\d{3}_.*\.ts$/.test(file))
      .map((file) => file.replace(/\.ts$/, ''))
      .sort();
    expect(auditMigrations.map((migration) => migration.name)).toEqual(files);
  });
});
