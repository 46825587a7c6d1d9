// The drive screens' pure rules: display formats, the list's state (paging, sort, select-all), the remembered view,
// what a preview shows, folder addresses, and the dialogs' checks.
import { GIB } from '@workspace/drive/domain';
import type { Folder } from '../../src/features/drive/api/types';
import { FOLDER_SWATCHES, folderSaveNeeded } from '../../src/features/drive/dialogs/folderRules';
import { acceptPageSize, formatBytes, ownerLabel, remainingGb } from '../../src/features/drive/list/format';
import { initialListState, listReducer, selectAllState } from '../../src/features/drive/list/listState';
import { readViewMode, viewModeKey } from '../../src/features/drive/list/viewMode';
import { folderChain, folderPath, resolveSlugChain } from '../../src/features/drive/pages/folderPath';
import { prettyJson } from '../../src/features/drive/preview/previewKind';

describe('drive display formats', () => {
  it('formats sizes in base 1024 with B, kB, MB, GB, TB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 kB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatBytes(3.25 * GIB)).toBe('3.3 GB');
    expect(formatBytes(2 * 1024 * GIB)).toBe('2 TB');
  });

  it("shows 'You' as the owner of the current user's files, else the owner's name", () => {
    expect(ownerLabel({ ownerId: 'u1', ownerName: 'Ann' }, 'u1')).toBe('You');
    expect(ownerLabel({ ownerId: 'u2', ownerName: 'Bob Smith' }, 'u1')).toBe('Bob Smith');
  });

  it('shows the storage left as (cap − used) in whole GiB, floored, never below 0', () => {
    expect(remainingGb(5 * GIB, 1.5 * GIB)).toBe(3);
    expect(remainingGb(5 * GIB, 6 * GIB)).toBe(0);
  });
});

describe('the file list state', () => {
  it('accepts a page size only above 0 and not above the maximum (200)', () => {
    expect(acceptPageSize(0, 50)).toBe(50);
    expect(acceptPageSize(201, 50)).toBe(50);
    expect(acceptPageSize(200, 50)).toBe(200);
  });

  it('sorts by Created, newest first, by default; clicking the sorted column toggles the direction (the domain’s nextSort)', () => {
    expect(initialListState).toMatchObject({ sort: 'createdAt', direction: 'desc', page: 1, pageSize: 50 });
    const toggled = listReducer(initialListState, { type: 'sort', field: 'createdAt' });
    expect(toggled).toMatchObject({ sort: 'createdAt', direction: 'asc' });
    const byName = listReducer(toggled, { type: 'sort', field: 'name' });
    expect(byName).toMatchObject({ sort: 'name', direction: 'asc' });
    expect(listReducer(byName, { type: 'sort', field: 'name' })).toMatchObject({ direction: 'desc' });
  });

  it('goes back to page 1 whenever a filter changes', () => {
    const onPage3 = listReducer(initialListState, { type: 'page', page: 3 });
    expect(onPage3.page).toBe(3);
    expect(listReducer(onPage3, { type: 'filter', changes: { q: 'plan' } }).page).toBe(1);
    expect(listReducer(onPage3, { type: 'filter', changes: { visibility: 'shared' } }).page).toBe(1);
    expect(listReducer(onPage3, { type: 'filter', changes: { libraryId: 'l1' } }).page).toBe(1);
  });

  it('gives the select-all control a partial state when only some rows are selected', () => {
    expect(selectAllState(0, 3)).toEqual({ checked: false, indeterminate: false });
    expect(selectAllState(1, 3)).toEqual({ checked: false, indeterminate: true });
    expect(selectAllState(3, 3)).toEqual({ checked: true, indeterminate: false });
  });

  it('remembers grid or list per page, grid when nothing is stored', () => {
    const stored: Record<string, string> = { [viewModeKey('trash')]: 'list' };
    const storage = { getItem: (key: string) => stored[key] ?? null };
    expect(readViewMode(storage, 'trash')).toBe('list');
    expect(readViewMode(storage, 'all')).toBe('grid');
  });
});

describe('the preview', () => {
  it('pretty-prints JSON and leaves other text alone', () => {
    expect(prettyJson('{"a":1,"b":[2]}')).toBe('{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
    expect(prettyJson('not json')).toBe('not json');
  });
});

const folder = (id: string, slug: string, parentId: string | null, ancestors: string[] = []): Folder => ({
  id,
  slug,
  name: slug.toUpperCase(),
  parentId,
  ancestors,
  driveId: 'd',
  color: 'primary',
  fileCount: 0,
  totalSize: 0,
  libraryId: null,
  colorHex: null,
  type: 'folder',
  driveName: 'Site',
  libraryName: null,
  createdBy: 'u1',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

describe('folders in the address', () => {
  const folders = [folder('1', 'a', null), folder('2', 'b', '1', ['1']), folder('3', 'b', null)];

  it('resolves a slug chain from the root, each slug among the previous folder’s children', () => {
    expect(resolveSlugChain(folders, ['a', 'b'])?.map((item) => item.id)).toEqual(['1', '2']);
    expect(resolveSlugChain(folders, ['b'])?.map((item) => item.id)).toEqual(['3']);
    expect(resolveSlugChain(folders, ['a', 'x'])).toBeUndefined();
  });

  it('builds the breadcrumb addresses from the slugs and the chain from the ancestors', () => {
    expect(folderPath([{ slug: 'a' }, { slug: 'b' }])).toBe('/drive/folders/a/b');
    expect(folderChain(folders, folders[1]).map((item) => item.slug)).toEqual(['a', 'b']);
  });
});

describe('the folder dialogs', () => {
  it('skips a folder save when the name and colour are unchanged, the name is blank, or a save is in progress', () => {
    const before = { name: 'Plans', color: 'primary' as const };
    expect(folderSaveNeeded(before, { name: ' Plans ', color: 'primary' }, false)).toBe(false);
    expect(folderSaveNeeded(before, { name: 'Plans', color: 'red' }, false)).toBe(true);
    expect(folderSaveNeeded(before, { name: 'Drawings', color: 'primary' }, true)).toBe(false);
    expect(folderSaveNeeded(undefined, { name: '   ', color: 'primary' }, false)).toBe(false);
  });

  it('offers the default colour and the seven hex choices', () => {
    expect(FOLDER_SWATCHES.map((swatch) => swatch.hex)).toEqual([
      null,
      '#3B82F6',
      '#8B5CF6',
      '#EC4899',
      '#F59E0B',
      '#EF4444',
      '#10B981',
      '#6366F1',
    ]);
  });
});
