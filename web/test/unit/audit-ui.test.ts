// The audit log's rules (docs/audit.md "The audit screen"): who may open it, the filters from the address to the
// audit service's query (London days as instants, across the clock changes), the CSV export's URL with the same
// filters, and how actors and sources are named.
import { cisEvents, cisNoticeEvents, driveEvents } from '@workspace/proto';
import { actionName, suggestedActions } from '../../src/features/audit/actions';
import {
  auditCsvUrl,
  auditFiltersOf,
  auditQueryOf,
  entryMatches,
  isFiltered,
  londonDayStart,
  nextDay,
} from '../../src/features/audit/filters';
import { actorName, sourceLabel, type AuditActor } from '../../src/features/audit/present';
import { canReadAudit, readableModules, readsWholeTrail } from '../../src/features/audit/scopes';

describe('who may open the audit log', () => {
  it('any audit read scope opens it; audit.read (or every scope) reads the whole trail, a module scope its module', () => {
    expect(canReadAudit(['cis.inv.read', 'drive.file.read'])).toBe(false);
    expect(canReadAudit(['audit.read'])).toBe(true);
    expect(canReadAudit(['cis.audit.read'])).toBe(true);
    expect(canReadAudit(['drive.audit.read'])).toBe(true);
    expect(canReadAudit(['*'])).toBe(true);
    expect(readsWholeTrail(['cis.audit.read', 'drive.audit.read'])).toBe(false);
    expect(readableModules(['*'])).toBe('all');
    expect(readableModules(['audit.read'])).toBe('all');
    expect(readableModules(['cis.audit.read'])).toEqual(['cis']);
    expect(readableModules(['drive.audit.read', 'cis.audit.read'])).toEqual(['cis', 'drive']);
  });

  it("suggests the actions of the modules the reader sees (the spec's action names)", () => {
    const cisOnly = suggestedActions(['cis']);
    expect(cisOnly).toContain('cis.invoice.approved');
    expect(cisOnly).not.toContain('FILE_UPLOADED');
    expect(suggestedActions('all')).toEqual(expect.arrayContaining(['FILE_UPLOADED', 'SHARE_LINK_COPIED']));
  });

  it('lists every action the services publish (their event contracts), each under its module', () => {
    const cis = [...Object.keys(cisEvents), ...Object.values(cisNoticeEvents).map((event) => event.type)];
    const drive = Object.keys(driveEvents);
    expect(cis).toContain('cis.deadline.alerted');
    expect(suggestedActions(['cis'])).toEqual(expect.arrayContaining(cis));
    expect(suggestedActions(['drive'])).toEqual(expect.arrayContaining(drive));
    expect(suggestedActions('all')).toEqual(expect.arrayContaining([...cis, ...drive]));
    expect(new Set(suggestedActions('all')).size).toBe(suggestedActions('all').length);
    // The actions no person takes have a name on screen besides their code.
    for (const event of Object.values(cisNoticeEvents)) expect(actionName(event.type)).toBeTruthy();
    expect(actionName('cis.deadline.alerted')).toBe('CIS deadline notice');
    expect(actionName('cis.invoice.approved')).toBeUndefined();
  });
});

describe('the filters', () => {
  it('reads the filters from the address, leaving out what cannot be read', () => {
    const filters = auditFiltersOf(
      new URLSearchParams(
        'action=cis.invoice.approved&actorId=u-1&targetId=%20i-9%20&from=2026-11-01&to=bad&page=x',
      ),
    );
    expect(filters).toEqual({
      action: 'cis.invoice.approved',
      actorId: 'u-1',
      targetId: 'i-9',
      from: '2026-11-01',
      to: '',
      page: 1,
    });
    expect(auditFiltersOf(new URLSearchParams('page=3')).page).toBe(3);
    expect(isFiltered(auditFiltersOf(new URLSearchParams('page=3')))).toBe(false);
    expect(isFiltered(filters)).toBe(true);
  });

  it('sends London days as the instants they begin and end (GMT in winter, BST in summer, the change days too)', () => {
    expect(londonDayStart('2026-11-27')).toBe('2026-11-27T00:00:00.000Z');
    expect(londonDayStart('2026-07-01')).toBe('2026-06-30T23:00:00.000Z');
    // Clocks go forward at 01:00 on 29 March 2026: that day begins in GMT, the next in BST.
    expect(londonDayStart('2026-03-29')).toBe('2026-03-29T00:00:00.000Z');
    expect(londonDayStart('2026-03-30')).toBe('2026-03-29T23:00:00.000Z');
    // Clocks go back at 02:00 BST on 25 October 2026: that day begins in BST, the next in GMT.
    expect(londonDayStart('2026-10-25')).toBe('2026-10-24T23:00:00.000Z');
    expect(londonDayStart('2026-10-26')).toBe('2026-10-26T00:00:00.000Z');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(
      auditQueryOf({
        action: 'FILE_UPLOADED',
        actorId: '',
        targetId: 'f-1',
        from: '2026-07-01',
        to: '2026-07-31',
        page: 2,
      }),
    ).toEqual({
      action: 'FILE_UPLOADED',
      targetId: 'f-1',
      from: '2026-06-30T23:00:00.000Z',
      to: '2026-07-31T23:00:00.000Z',
    });
  });

  it('exports the CSV with the same filters as the list, every page of it', () => {
    const filters = auditFiltersOf(new URLSearchParams('action=cis.invoice.approved&from=2026-11-01&page=4'));
    expect(auditCsvUrl(filters)).toBe(
      '/api/audit/entries.csv?action=cis.invoice.approved&from=2026-11-01T00%3A00%3A00.000Z',
    );
    expect(auditCsvUrl(auditFiltersOf(new URLSearchParams()))).toBe('/api/audit/entries.csv');
  });
});

describe('live entries', () => {
  it('a new entry counts for the list when the filters select it (action, actor, target, London days)', () => {
    const entry = {
      action: 'cis.invoice.approved',
      actorId: 'u-1',
      targetId: 'i-1',
      occurredAt: '2026-06-30T23:30:00.000Z', // 00:30 on 1 July in London
    };
    const filters = auditFiltersOf(
      new URLSearchParams('action=cis.invoice.approved&from=2026-07-01&to=2026-07-01'),
    );
    expect(entryMatches(entry, filters)).toBe(true);
    expect(entryMatches(entry, { ...filters, from: '2026-07-02', to: '' })).toBe(false);
    expect(entryMatches(entry, { ...filters, from: '', to: '2026-06-30' })).toBe(false);
    expect(entryMatches(entry, { ...filters, action: 'cis.invoice.paid' })).toBe(false);
    expect(entryMatches(entry, { ...filters, actorId: 'u-2' })).toBe(false);
    expect(entryMatches(entry, { ...filters, targetId: 'i-2' })).toBe(false);
    // An entry too large for the stream may be one of them: the list is fetched again.
    expect(entryMatches(undefined, filters)).toBe(true);
  });
});

describe('how an entry is shown', () => {
  it('names the actor as the directory knows them, System, a portal subcontractor, else by id; the source by service or the browser', () => {
    const people = new Map<string, AuditActor>([
      ['u-1', { uid: 'u-1', displayName: 'Ada Admin', fullName: 'Ada Admin', email: 'a@x', username: 'ada' }],
      ['u-2', { uid: 'u-2', displayName: '', fullName: '', email: 'b@x', username: 'b' }],
    ]);
    expect(actorName('u-1', people)).toBe('Ada Admin');
    expect(actorName('u-2', people)).toBe('b@x');
    expect(actorName('sub-9', people)).toBe('sub-9');
    expect(actorName('system', people)).toBe('System');
    expect(actorName('portal:sub-9', people)).toBe('Subcontractor (portal)');
    expect(actorName('portal', people)).toBe('Subcontractor (portal)');
    expect(actorName('portal:', people)).toBe('portal:');
    expect(sourceLabel('/workspace/cis')).toBe('cis service');
    expect(sourceLabel('client')).toBe('Browser');
    expect(sourceLabel('elsewhere')).toBe('elsewhere');
  });
});
