import {
  cisDeadline,
  clipSubject,
  fileShared,
  isAppLink,
  portalInvoiceSubmitted,
  signatureRequested,
  SUBJECT_MAX,
} from '../src/domain/notifications.js';

const A = '00000000-0000-4000-8000-000000000001';
const B = '00000000-0000-4000-8000-000000000002';

describe('in-app notifications from events', () => {
  it('a signature request: the assignee, never the requester themself or the system', () => {
    expect(
      signatureRequested({
        tenantId: 'demo',
        taskId: 't1',
        assignedToUid: A,
        actorId: B,
        fileName: 'Plan.pdf',
      }),
    ).toEqual([
      {
        tenantId: 'demo',
        targetUid: A,
        type: 'drive.signature.requested',
        subject: 'You are asked to sign “Plan.pdf”',
        link: '/drive/signatures?task=t1',
        sourceKey: 'drive.signature:t1',
        fromUid: B,
        subjectType: 'signature',
        subjectId: 't1',
        subjectName: 'Plan.pdf',
      },
    ]);
    expect(signatureRequested({ tenantId: 'demo', taskId: 't1', assignedToUid: A, actorId: A })).toEqual([]);
    expect(
      signatureRequested({ tenantId: 'demo', taskId: 't1', assignedToUid: 'system', actorId: B }),
    ).toEqual([]);
  });

  it('a share: each person once (not the one sharing), one per share however many files', () => {
    const byFile = fileShared({
      tenantId: 'demo',
      fileId: 'f1',
      actorId: A,
      fileName: 'x.pdf',
      userIds: [A, B, B],
    });
    expect(byFile).toEqual([
      expect.objectContaining({
        targetUid: B,
        subject: '“x.pdf” was shared with you',
        link: '/drive/all?file=f1',
        sourceKey: 'drive.file-shared:f1',
      }),
    ]);
    const byShare = fileShared({
      tenantId: 'demo',
      fileId: 'f1',
      actorId: A,
      fileName: 'x.pdf',
      userIds: [B],
      shareId: 's1',
      fileCount: 3,
    });
    expect(byShare).toEqual([
      expect.objectContaining({
        subject: 'Files were shared with you, starting with “x.pdf”',
        link: '/share/s1',
        sourceKey: 'drive.share:s1',
      }),
    ]);
  });

  it('a portal invoice: every approver once, linked to the invoice', () => {
    expect(
      portalInvoiceSubmitted({
        tenantId: 'demo',
        invoiceId: 'i1',
        invoiceNumber: 'INV-7',
        approvers: [A, A, B],
      }),
    ).toEqual([
      expect.objectContaining({ targetUid: A, subject: 'Portal invoice INV-7 is awaiting your approval' }),
      expect.objectContaining({ targetUid: B, link: '/cis/invoices/i1', sourceKey: 'cis.invoice:i1' }),
    ]);
  });

  it('a CIS deadline: one per tax month, deadline, state and person', () => {
    const [due] = cisDeadline({
      tenantId: 'demo',
      kind: 'filing',
      taxMonth: '2025-05',
      state: 'due',
      message: 'CIS300 return filing for the tax month 6 May to 5 June due in 3 days (19 June 2025)',
      people: [A],
    });
    expect(due).toMatchObject({
      type: 'cis.deadline.due',
      link: '/cis/returns?month=2025-05',
      sourceKey: 'cis.deadline:2025-05:filing:due',
    });
  });

  it('links are paths of the app; subjects one line, clipped', () => {
    expect(isAppLink('/cis/invoices/1')).toBe(true);
    for (const link of ['https://evil.test/', '//evil.test/x', 'javascript:alert(1)', '/a b', '/\\evil']) {
      expect(isAppLink(link)).toBe(false);
    }
    expect(clipSubject('  two\nlines ')).toBe('two lines');
    expect(clipSubject('x'.repeat(SUBJECT_MAX + 10))).toHaveLength(SUBJECT_MAX);
  });
});
