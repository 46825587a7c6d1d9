import {
  CIS_DECLARATION_MISSING,
  CIS_INACTIVITY_ONLY_NIL,
  declarationIssues,
  declaredForReturn,
  requiredDeclarations,
} from '../src/index.js';

describe('the declarations of a CIS300 return (HMRC notes §1.7)', () => {
  it('a return with payments asks for employment status, verification and information correct; a nil return for information correct', () => {
    expect(requiredDeclarations(false)).toEqual(['employmentStatus', 'verification', 'informationCorrect']);
    expect(requiredDeclarations(true)).toEqual(['informationCorrect']);
  });

  it('names each required declaration not ticked (missing or false)', () => {
    expect(declarationIssues(false, undefined)).toEqual({
      employmentStatus: CIS_DECLARATION_MISSING.employmentStatus,
      verification: CIS_DECLARATION_MISSING.verification,
      informationCorrect: CIS_DECLARATION_MISSING.informationCorrect,
    });
    expect(
      declarationIssues(false, { employmentStatus: true, verification: false, informationCorrect: true }),
    ).toEqual({
      verification: CIS_DECLARATION_MISSING.verification,
    });
    expect(
      declarationIssues(false, { employmentStatus: true, verification: true, informationCorrect: true }),
    ).toEqual({});
    expect(declarationIssues(true, { inactivity: true })).toEqual({
      informationCorrect: CIS_DECLARATION_MISSING.informationCorrect,
    });
    expect(declarationIssues(true, { informationCorrect: true, inactivity: true })).toEqual({});
  });

  it('inactivity is for a nil return only', () => {
    expect(
      declarationIssues(false, {
        employmentStatus: true,
        verification: true,
        informationCorrect: true,
        inactivity: true,
      }),
    ).toEqual({ inactivity: CIS_INACTIVITY_ONLY_NIL });
  });

  it('keeps only what the return asks for', () => {
    const all = { employmentStatus: true, verification: true, informationCorrect: true, inactivity: true };
    expect(declaredForReturn(true, all)).toEqual({ informationCorrect: true, inactivity: true });
    expect(declaredForReturn(true, { informationCorrect: true })).toEqual({
      informationCorrect: true,
      inactivity: false,
    });
    expect(declaredForReturn(false, all)).toEqual({
      employmentStatus: true,
      verification: true,
      informationCorrect: true,
    });
  });
});
