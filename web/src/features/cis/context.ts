import type { Abilities } from '@workspace/cis/contract';
import { createContext, useContext } from 'react';
import type { Session } from '../../app/api';

export interface CisContextValue {
  abilities: Abilities;
  testingTools: boolean;
  session: Session;
}

export const CisContext = createContext<CisContextValue | null>(null);

/** The caller's CIS UI flags (GET /api/cis/me/abilities) and session, inside the CIS module. */
export function useCis(): CisContextValue {
  const value = useContext(CisContext);
  if (!value) throw new Error('useCis outside the CIS module');
  return value;
}
