import { statementCopyFor } from '../../src/domain/index.js';

const ISSUER = 'user-issuer';
const reader = (overrides: Partial<Parameters<typeof statementCopyFor>[0]> = {}) => ({
  userId: ISSUER,
  canUnmask: false,
  canIssue: true,
  ...overrides,
});

describe('statementCopyFor (ADR 0029)', () => {
  it('gives a holder of cis.pii.unmask the subcontractor’s copy, whatever became of the statement', () => {
    for (const issuedMethod of [null, 'email', 'portal', 'print'] as const)
      expect(
        statementCopyFor(reader({ canUnmask: true, canIssue: false }), { issuedMethod, issuedBy: 'someone' }),
      ).toEqual({ copy: 'subcontractor', basis: 'unmask' });
  });

  it('gives the issuer who issued it by print the subcontractor’s copy', () => {
    expect(statementCopyFor(reader(), { issuedMethod: 'print', issuedBy: ISSUER })).toEqual({
      copy: 'subcontractor',
      basis: 'print-issue',
    });
  });

  it('gives everyone else the staff copy: not issued, issued by email or portal, printed by another, or no issue scope', () => {
    expect(statementCopyFor(reader(), { issuedMethod: null, issuedBy: null })).toEqual({ copy: 'staff' });
    expect(statementCopyFor(reader(), { issuedMethod: 'email', issuedBy: ISSUER })).toEqual({
      copy: 'staff',
    });
    expect(statementCopyFor(reader(), { issuedMethod: 'portal', issuedBy: ISSUER })).toEqual({
      copy: 'staff',
    });
    expect(statementCopyFor(reader(), { issuedMethod: 'print', issuedBy: 'another' })).toEqual({
      copy: 'staff',
    });
    expect(
      statementCopyFor(reader({ canIssue: false }), { issuedMethod: 'print', issuedBy: ISSUER }),
    ).toEqual({ copy: 'staff' });
  });
});
