import { z } from 'zod';
import { driveAbilities, type DriveAbilities } from '../domain/index.js';

/** One flag per drive ability (the domain's table), read off the domain's own answer. */
const abilityFlags = z.object(
  Object.fromEntries(
    Object.keys(driveAbilities({ userId: '', scopes: new Set() })).map((ability) => [ability, z.boolean()]),
  ),
) as unknown as z.ZodObject<{ [Ability in keyof DriveAbilities]: z.ZodBoolean }>;

export const abilitiesResponse = z.object({
  abilities: abilityFlags,
  /** The region this release serves (the drive refuses tenants of other regions). */
  region: z.string(),
});
