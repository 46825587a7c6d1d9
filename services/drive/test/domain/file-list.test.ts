import {
  DEFAULT_FILE_SORT,
  isPageSizeAllowed,
  MAX_PAGE_SIZE,
  nextSort,
  PAGE_SIZE,
  pageWindow,
  previewKind,
  recentSince,
  sharedLabel,
  thumbnailPath,
  viewTotal,
} from '../../src/domain/index.js';

describe('file list sort', () => {
  it('defaults to created, newest first', () => {
    expect(DEFAULT_FILE_SORT).toEqual({ sort: 'createdAt', direction: 'desc' });
  });

  it('toggles the direction when the same column is clicked again', () => {
    expect(nextSort({ sort: 'name', direction: 'asc' }, 'name')).toEqual({ sort: 'name', direction: 'desc' });
    expect(nextSort({ sort: 'name', direction: 'desc' }, 'name')).toEqual({ sort: 'name', direction: 'asc' });
    expect(nextSort(DEFAULT_FILE_SORT, 'createdAt')).toEqual({ sort: 'createdAt', direction: 'asc' });
  });

  it('starts another column ascending, dates newest first', () => {
    expect(nextSort(DEFAULT_FILE_SORT, 'size')).toEqual({ sort: 'size', direction: 'asc' });
    expect(nextSort({ sort: 'name', direction: 'asc' }, 'updatedAt')).toEqual({
      sort: 'updatedAt',
      direction: 'desc',
    });
  });
});

describe('page sizes (drive.md §9: 50, at most 200)', () => {
  it('are 50 by default with a maximum of 200', () => {
    expect(PAGE_SIZE).toBe(50);
    expect(MAX_PAGE_SIZE).toBe(200);
  });

  it('accept a size above 0 and not above the maximum only', () => {
    expect([1, 50, 200].map(isPageSizeAllowed)).toEqual([true, true, true]);
    expect([0, -1, 201, 2.5, Number.NaN].map(isPageSizeAllowed)).toEqual([false, false, false, false, false]);
  });
});

describe('Recent (50 files, 30 days; the dashboard shows 10)', () => {
  it('looks back 30 days', () => {
    expect(recentSince(new Date('2026-03-31T12:00:00Z')).toISOString()).toBe('2026-03-01T12:00:00.000Z');
  });

  it('pages within its 50 files and counts at most 50', () => {
    expect(pageWindow('recent', 1, 40)).toEqual({ offset: 0, limit: 40 });
    expect(pageWindow('recent', 2, 40)).toEqual({ offset: 40, limit: 10 });
    expect(pageWindow('recent', 3, 40)).toBeUndefined();
    expect(pageWindow('all', 3, 40)).toEqual({ offset: 80, limit: 40 });
    expect(viewTotal('recent', 75)).toBe(50);
    expect(viewTotal('all', 75)).toBe(75);
  });
});

describe('the Shared column', () => {
  it("shows Shared, Private or '{n} people'", () => {
    expect(sharedLabel({ visibility: 'shared', sharedWithCount: 0 })).toBe('Shared');
    expect(sharedLabel({ visibility: 'private', sharedWithCount: 0 })).toBe('Private');
    expect(sharedLabel({ visibility: 'restricted', sharedWithCount: 0 })).toBe('Private');
    expect(sharedLabel({ visibility: 'shared', sharedWithCount: 3 })).toBe('3 people');
  });
});

describe('what a preview shows', () => {
  it.each([
    ['Plan.pdf', 'application/pdf', 'pdf', 'pdf'],
    ['Photo.JPG', 'image/jpeg', 'image', 'image'],
    ['Scan.tiff', 'image/tiff', 'image', 'none'],
    ['Walkround.mp4', 'video/mp4', 'video', 'video'],
    ['Memo.m4a', 'audio/mp4', 'audio', 'audio'],
    ['Costs.csv', 'text/csv', 'spreadsheet', 'csv'],
    ['Data.json', 'application/json', 'code', 'json'],
    ['Notes.txt', 'text/plain', 'document', 'text'],
    ['README.md', 'text/markdown', 'document', 'text'],
    ['build.sh', 'text/x-sh', 'code', 'text'],
    [
      'Report.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'document',
      'none',
    ],
    ['Archive.zip', 'application/zip', 'archive', 'none'],
  ] as const)('%s (%s) previews as %s → %s', (name, mimeType, typeClass, kind) => {
    expect(previewKind({ name, mimeType, typeClass })).toBe(kind);
  });
});

describe('thumbnail keys', () => {
  it('live under the tenant prefix at thumbs/{id}/v/{version}/{name}.jpg', () => {
    expect(thumbnailPath('demo', 'f1', 3, 'Site Plan (rev B).pdf')).toBe(
      'tenants/demo/thumbs/f1/v/3/site-plan-rev-b.jpg',
    );
    expect(thumbnailPath('demo', 'f1', 1, '!!!.png')).toBe('tenants/demo/thumbs/f1/v/1/thumbnail.jpg');
  });
});
