import {
  ancestorsUnder,
  breadcrumbs,
  DEFAULT_FOLDER_COLOUR,
  FOLDER_COLOUR_HEX,
  FOLDER_COLOURS,
  folderColourHex,
  folderColourOf,
  folderName,
  isSelfOrDescendant,
  slugChain,
  slugify,
  uniqueSlug,
} from '../../src/domain/index.js';

describe('folder names', () => {
  it('are trimmed on save, inner runs of spaces made one', () => {
    expect(folderName('  Site   photos ')).toBe('Site photos');
  });

  it('are refused when blank after trimming', () => {
    expect(folderName('')).toBeUndefined();
    expect(folderName(' \t\n ')).toBeUndefined();
  });
});

describe('folder slugs', () => {
  it('are lower-cased, punctuation removed, spaces to hyphens', () => {
    expect(slugify('My Files!')).toBe('my-files');
    expect(slugify('Phase 2: Groundworks & Drainage')).toBe('phase-2-groundworks-drainage');
    expect(slugify('Café  Plans')).toBe('cafe-plans');
  });

  it('take -2, -3 when a sibling has the slug already', () => {
    expect(uniqueSlug('Reports', new Set())).toBe('reports');
    expect(uniqueSlug('Reports', new Set(['reports']))).toBe('reports-2');
    expect(uniqueSlug('reports!', new Set(['reports', 'reports-2']))).toBe('reports-3');
  });

  it("fall back to 'folder' when nothing of the name survives", () => {
    expect(uniqueSlug('!!!', new Set())).toBe('folder');
    expect(uniqueSlug('???', new Set(['folder']))).toBe('folder-2');
  });
});

describe('folder colours', () => {
  it('default to primary, one of the eight named colours', () => {
    expect(DEFAULT_FOLDER_COLOUR).toBe('primary');
    expect(FOLDER_COLOURS).toEqual(['primary', 'blue', 'purple', 'pink', 'amber', 'red', 'green', 'teal']);
  });

  it("pair the dialog's seven hex swatches with the seven other names, in the spec's order", () => {
    expect(Object.values(FOLDER_COLOUR_HEX)).toEqual([
      '#3B82F6',
      '#8B5CF6',
      '#EC4899',
      '#F59E0B',
      '#EF4444',
      '#10B981',
      '#6366F1',
    ]);
    expect(Object.keys(FOLDER_COLOUR_HEX)).toEqual(FOLDER_COLOURS.slice(1));
  });

  it('read a name or a swatch (any case) as the named colour; anything else is refused', () => {
    expect(folderColourOf('teal')).toBe('teal');
    expect(folderColourOf('#3b82f6')).toBe('blue');
    expect(folderColourOf(' #EF4444 ')).toBe('red');
    expect(folderColourOf('#123456')).toBeUndefined();
    expect(folderColourOf('chartreuse')).toBeUndefined();
    expect(folderColourHex('primary')).toBeUndefined();
    expect(folderColourHex('amber')).toBe('#F59E0B');
  });
});

describe('the folder tree', () => {
  const root = { id: 'a', parentId: null, ancestors: [] };
  const child = { id: 'b', parentId: 'a', ancestors: ['a'] };
  const grandchild = { id: 'c', parentId: 'b', ancestors: ['a', 'b'] };
  const other = { id: 'x', parentId: null, ancestors: [] };

  it('gives a folder the ancestors of its parent, then the parent', () => {
    expect(ancestorsUnder(null)).toEqual([]);
    expect(ancestorsUnder(root)).toEqual(['a']);
    expect(ancestorsUnder(grandchild)).toEqual(['a', 'b', 'c']);
  });

  it('finds a move under the folder itself or any of its descendants', () => {
    expect(isSelfOrDescendant(root, root)).toBe(true);
    expect(isSelfOrDescendant(root, child)).toBe(true);
    expect(isSelfOrDescendant(root, grandchild)).toBe(true);
    expect(isSelfOrDescendant(child, root)).toBe(false);
    expect(isSelfOrDescendant(root, other)).toBe(false);
    expect(isSelfOrDescendant(root, null)).toBe(false);
  });
});

describe('slug chains and breadcrumbs', () => {
  it('split an address into its slugs, dropping empty steps', () => {
    expect(slugChain('a/b')).toEqual(['a', 'b']);
    expect(slugChain('/Project-Alpha//phase-2/')).toEqual(['project-alpha', 'phase-2']);
    expect(slugChain('')).toEqual([]);
  });

  it('give each crumb the chain that opens it', () => {
    expect(
      breadcrumbs([
        { id: '1', name: 'Project Alpha', slug: 'project-alpha' },
        { id: '2', name: 'Phase 2', slug: 'phase-2' },
      ]),
    ).toEqual([
      { id: '1', name: 'Project Alpha', slug: 'project-alpha', path: 'project-alpha' },
      { id: '2', name: 'Phase 2', slug: 'phase-2', path: 'project-alpha/phase-2' },
    ]);
  });
});
