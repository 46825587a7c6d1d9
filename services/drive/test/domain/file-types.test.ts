import {
  extensionOf,
  fileTypeClass,
  FILE_TYPE_CLASSES,
  usageCounter,
  USAGE_COUNTERS,
} from '../../src/domain/index.js';

describe('extensionOf', () => {
  it('is the lower-case extension without its dot', () => {
    expect(extensionOf('Plan.PDF')).toBe('pdf');
    expect(extensionOf('archive.tar.gz')).toBe('gz');
  });

  it('is empty without an extension, for a dot file and for a trailing dot', () => {
    expect(extensionOf('README')).toBe('');
    expect(extensionOf('.env')).toBe('');
    expect(extensionOf('draft.')).toBe('');
  });
});

describe('fileTypeClass', () => {
  it.each([
    ['Contract.pdf', 'pdf'],
    ['Photo.JPG', 'image'],
    ['walkthrough.mp4', 'video'],
    ['memo.m4a', 'audio'],
    ['Minutes.docx', 'document'],
    ['notes.txt', 'document'],
    ['Valuation.xlsx', 'spreadsheet'],
    ['rates.csv', 'spreadsheet'],
    ['Pitch.pptx', 'presentation'],
    ['config.json', 'code'],
    ['Handover.zip', 'archive'],
    ['model.dwg', 'other'],
  ])('classes %s as %s by its extension', (name, typeClass) => {
    expect(fileTypeClass(name)).toBe(typeClass);
  });

  it('uses the MIME type when the extension says nothing', () => {
    expect(fileTypeClass('scan', 'application/pdf')).toBe('pdf');
    expect(fileTypeClass('upload', 'image/heic')).toBe('image');
    expect(fileTypeClass('clip', 'video/quicktime')).toBe('video');
    expect(fileTypeClass('voice', 'audio/ogg')).toBe('audio');
    expect(fileTypeClass('readme', 'text/plain')).toBe('document');
    expect(fileTypeClass('blob', 'application/octet-stream')).toBe('other');
  });

  it('trusts the extension over the MIME type', () => {
    expect(fileTypeClass('Plan.pdf', 'application/octet-stream')).toBe('pdf');
  });
});

describe('usageCounter', () => {
  it('maps every class to one of the spec’s counters; code counts as other', () => {
    for (const typeClass of FILE_TYPE_CLASSES) expect(USAGE_COUNTERS).toContain(usageCounter(typeClass));
    expect(usageCounter('pdf')).toBe('pdf');
    expect(usageCounter('image')).toBe('images');
    expect(usageCounter('document')).toBe('documents');
    expect(usageCounter('spreadsheet')).toBe('spreadsheets');
    expect(usageCounter('presentation')).toBe('presentations');
    expect(usageCounter('archive')).toBe('archives');
    expect(usageCounter('code')).toBe('other');
  });
});
