import {
  DELETE_REFUSAL_TEXTS,
  deleteText,
  ownedSelection,
  restoreText,
  TRASH_TEXTS,
} from '../../src/domain/index.js';

describe('bulk delete applies to owned files only', () => {
  const files = [
    { id: 'a', ownerId: 'me', createdBy: 'me' },
    { id: 'b', ownerId: 'someone', createdBy: 'me' },
    { id: 'c', ownerId: 'someone', createdBy: 'someone' },
  ];

  it('keeps the files the caller owns or created, and leaves the others', () => {
    const { owned, others } = ownedSelection(files, 'me');
    expect(owned.map((file) => file.id)).toEqual(['a', 'b']);
    expect(others.map((file) => file.id)).toEqual(['c']);
  });

  it('selects nothing when the caller owns none', () => {
    expect(ownedSelection(files, 'nobody').owned).toEqual([]);
  });
});

describe('delete texts', () => {
  it('says what happened to one file in the spec’s words', () => {
    expect(deleteText(false, 1)).toBe('File moved to trash');
    expect(deleteText(true, 1)).toBe('File permanently deleted');
    expect(TRASH_TEXTS.noOwned).toBe('No owned files selected for deletion');
    expect(TRASH_TEXTS.allFailed).toBe('Failed to delete all files');
    expect(TRASH_TEXTS.failed).toBe('Failed to delete file');
  });

  it('counts several files', () => {
    expect(deleteText(false, 3)).toBe('3 files moved to trash');
    expect(deleteText(true, 2)).toBe('2 files permanently deleted');
    expect(restoreText(1)).toBe('File restored');
    expect(restoreText(4)).toBe('4 files restored');
  });

  it('names each library rule that refuses a delete', () => {
    expect(Object.keys(DELETE_REFUSAL_TEXTS).sort()).toEqual([
      'legal_hold',
      'manager_only',
      'no_scope',
      'owner_only',
      'two_person',
    ]);
  });
});
