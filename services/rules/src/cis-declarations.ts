// The declarations of a CIS300 monthly return (HMRC notes §1.7; HMRC's CIS300 and hmrc/cis-frontend's wording).
// A return with payments declares employment status, verification and that the information is correct; a nil
// return declares only that the information is correct and may tell HMRC no payments will be made in the next
// 6 months (inactivity). The person submitting ticks each one; what they tick is stored with the return and
// written into the CIS300 as given. Pure and browser-safe: the web asks with these texts, cis checks with them.

export type CisDeclarationKey = 'employmentStatus' | 'verification' | 'informationCorrect' | 'inactivity';

/** What the person submitting declared: each box ticked (true) or not. */
export interface CisDeclarations {
  employmentStatus?: boolean | undefined;
  verification?: boolean | undefined;
  informationCorrect?: boolean | undefined;
  inactivity?: boolean | undefined;
}

/** How long an inactivity declaration tells HMRC no payments will be made (months). */
export const CIS_INACTIVITY_MONTHS = 6;

/** HMRC's wording of each declaration, as the person submitting reads it. */
export const CIS_DECLARATION_TEXTS: Record<CisDeclarationKey, string> = {
  employmentStatus:
    'The employment status of each individual included on this return has been considered and payments have not been made under contracts of employment.',
  verification:
    'Every subcontractor included on this return has been verified with HMRC, or has been included in previous CIS returns in this, or the previous two, tax years.',
  informationCorrect:
    'The information given on this return is correct and complete to the best of my knowledge and belief.',
  inactivity: `No payments will be made to subcontractors in the next ${CIS_INACTIVITY_MONTHS} months (tell HMRC the scheme is inactive).`,
};

/** Why a submit without a required declaration is refused, by declaration. */
export const CIS_DECLARATION_MISSING: Record<Exclude<CisDeclarationKey, 'inactivity'>, string> = {
  employmentStatus: 'Confirm the employment status declaration before submitting the return',
  verification: 'Confirm the verification declaration before submitting the return',
  informationCorrect: 'Confirm that the information on the return is correct before submitting it',
};

/** Inactivity is declared on a nil return only. */
export const CIS_INACTIVITY_ONLY_NIL = 'Inactivity can only be declared on a nil return';

/** The declarations a return asks for, in the order they are shown: nil returns ask information-correct only. */
export function requiredDeclarations(nil: boolean): Exclude<CisDeclarationKey, 'inactivity'>[] {
  return nil ? ['informationCorrect'] : ['employmentStatus', 'verification', 'informationCorrect'];
}

/**
 * What is wrong with the declarations given for a return (`nil`: no subcontractor lines): a message per required
 * declaration not ticked, and inactivity on a return with payments. Empty when the return may be submitted.
 */
export function declarationIssues(
  nil: boolean,
  given: CisDeclarations | null | undefined,
): Partial<Record<CisDeclarationKey, string>> {
  const issues: Partial<Record<CisDeclarationKey, string>> = {};
  for (const key of requiredDeclarations(nil))
    if (given?.[key] !== true) issues[key] = CIS_DECLARATION_MISSING[key];
  if (!nil && given?.inactivity === true) issues.inactivity = CIS_INACTIVITY_ONLY_NIL;
  return issues;
}

/**
 * The declarations as they are stored with a submitted return and written into its CIS300: only those the return
 * asks for (a nil return carries information-correct and inactivity; a return with payments the three).
 */
export function declaredForReturn(nil: boolean, given: CisDeclarations): CisDeclarations {
  return nil
    ? { informationCorrect: given.informationCorrect === true, inactivity: given.inactivity === true }
    : {
        employmentStatus: given.employmentStatus === true,
        verification: given.verification === true,
        informationCorrect: given.informationCorrect === true,
      };
}
