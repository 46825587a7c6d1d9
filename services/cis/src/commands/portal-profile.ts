import { problems } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { SubcontractorStore, type Address, type SubcontractorRecord } from '../db/subcontractors.store.js';
import {
  missingDetails,
  normalisePostcode,
  VALIDATION_MESSAGES,
  validateSubcontractorInput,
  type SubcontractorAddress,
} from '../domain/index.js';
import type { Actor } from '../events/audit.js';
import { assertValid } from './problems.js';
import { EMPTY_ADDRESS } from './subcontractors.js';
import { portalSubcontractor } from './portal.js';

/**
 * What a subcontractor may change of their own record in the portal: how to reach them (phone, mobile) and where
 * they are (registered and trading address). Their name, type, UTR, NINO, company and VAT numbers, verification
 * and rate, consents and e-mail address are the contractor's to change: the e-mail is where their sign-in links go,
 * so a session taken over cannot redirect the next link (docs/portal.md).
 */
export interface PortalProfileInput {
  phone: string;
  mobile: string;
  registeredAddress: SubcontractorAddress;
  tradingAddress: SubcontractorAddress;
  tradingAddressSameAsRegistered: boolean;
}

/** The field errors a portal profile edit answers with, keyed as the input names them. */
export function portalProfileErrors(existing: SubcontractorRecord, input: PortalProfileInput) {
  // The staff form's own rules (phone and mobile formats, postcodes, countries, no identifiers in an address line),
  // run on the record as it would be saved; only the fields the subcontractor may change can fail.
  const all = validateSubcontractorInput(
    {
      type: existing.type,
      name: existing.name,
      companyNumber: existing.companyNumber,
      vatNumber: existing.vatNumber,
      email: existing.email,
      gdprConsent: existing.gdprConsent,
      ...input,
    },
    'edit',
  );
  const errors = Object.fromEntries(
    Object.entries(all).filter(([field]) =>
      ['phone', 'mobile', 'registeredAddress', 'tradingAddress'].includes(field.split('.')[0] ?? ''),
    ),
  );
  // Their registered address is what the portal asks them for: its first line, city and postcode are required.
  const registered = input.registeredAddress;
  if (!registered.line1.trim()) errors['registeredAddress.line1'] ??= VALIDATION_MESSAGES.addressLine1;
  if (!registered.city.trim()) errors['registeredAddress.city'] ??= VALIDATION_MESSAGES.city;
  if (!registered.postcode.trim()) errors['registeredAddress.postcode'] ??= VALIDATION_MESSAGES.postcode;
  return errors;
}

const addressOf = (address: Partial<Address>): Address => {
  const full = { ...EMPTY_ADDRESS, ...address };
  return {
    line1: full.line1.trim(),
    line2: full.line2.trim(),
    city: full.city.trim(),
    county: full.county.trim(),
    postcode: normalisePostcode(full.postcode),
    country: full.country,
  };
};

/** The subcontractor's own record; any other id is 404 Subcontractor not found, as for a record that never was. */
export function portalProfile(deps: CisDeps, tenantId: string, subcontractorId: string, id: string) {
  if (id !== subcontractorId) return Promise.reject(problems.notFound('Subcontractor not found'));
  return deps.inTenant(tenantId, (trx) => portalSubcontractor(trx, subcontractorId));
}

/**
 * The subcontractor changes their contact details and addresses: validated with the staff form's rules, saved with
 * the portal subcontractor as the one who changed it (updated_by `portal:<id>`), audited as cis.subcontractor.updated
 * with that actor. An invited subcontractor's 'Details incomplete' clears once the address (and consent) are in.
 */
export function updatePortalProfile(
  deps: CisDeps,
  actor: Actor,
  subcontractorId: string,
  id: string,
  input: PortalProfileInput,
): Promise<SubcontractorRecord> {
  if (id !== subcontractorId) return Promise.reject(problems.notFound('Subcontractor not found'));
  return deps.inTenant(actor.tenantId, async (trx) => {
    const existing = await portalSubcontractor(trx, subcontractorId);
    assertValid(portalProfileErrors(existing, input));
    const registeredAddress = addressOf(input.registeredAddress);
    const row = await new SubcontractorStore(trx).update(
      id,
      {
        phone: input.phone.trim(),
        mobile: input.mobile.trim(),
        registeredAddress,
        tradingAddress: input.tradingAddressSameAsRegistered
          ? registeredAddress
          : addressOf(input.tradingAddress),
        tradingAddressSameAsRegistered: input.tradingAddressSameAsRegistered,
        detailsIncomplete:
          existing.detailsIncomplete &&
          missingDetails({ registeredAddress, gdprConsent: existing.gdprConsent }).length > 0,
      },
      actor.userId,
    );
    if (!row) throw problems.notFound('Subcontractor not found');
    await deps.audit.write(trx, actor, 'cis.subcontractor.updated', {
      targetType: 'subcontractor',
      targetId: row.id,
      summary: `Subcontractor ${row.name} updated their contact details in the portal`,
      details: { via: 'portal' },
    });
    return row;
  });
}
