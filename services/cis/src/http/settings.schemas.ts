import { z } from 'zod';
import { cisAbilities, type CisAbilities } from '../domain/index.js';

export const vatScheme = z.enum(['standard', 'reduced', 'zero', 'flat']);

export const settingsView = z.object({
  active: z.boolean(),
  companyName: z.string(),
  employerRef: z.string(),
  accountsOfficeRef: z.string(),
  utrMasked: z.string(),
  hasUtr: z.boolean(),
  vatScheme,
  emailStatements: z.boolean(),
  warningDays: z.number(),
  statementDeadlineDays: z.number(),
  emailFrom: z.string(),
  emailReplyTo: z.string(),
  statementFooter: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const settingsResponse = z.object({
  settings: settingsView,
  readiness: z.array(z.string()),
  /** On save (issue 13): the contractor's UTR or Accounts Office reference failing HMRC's check; saved all the same. */
  warnings: z.record(z.string(), z.string()).optional(),
});

export const settingsInput = z.object({
  active: z.boolean(),
  companyName: z.string().max(200),
  employerRef: z.string().max(20),
  accountsOfficeRef: z.string().max(20),
  utr: z.string().max(20).optional(),
  vatScheme,
  emailStatements: z.boolean(),
  warningDays: z.number().int(),
  statementDeadlineDays: z.number().int(),
  emailFrom: z.string().max(200).default(''),
  emailReplyTo: z.string().max(200).default(''),
  statementFooter: z.string().max(500).default(''),
});

export const roleBundle = z.object({ id: z.string(), name: z.string(), scopes: z.array(z.string()) });

export const rolePermissionsResponse = z.object({
  bundles: z.array(roleBundle),
  scopes: z.array(z.string()),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
});

export const bundleParams = z.object({ bundleId: z.string().max(41) });

export const bundleScopesBody = z.object({ scopes: z.array(z.string().startsWith('cis.')).max(40) });

/** One flag per CIS ability (the domain's ability table, `canView` first), read off the domain's own answer. */
const abilityFlags = z.object(
  Object.fromEntries(Object.keys(cisAbilities([])).map((ability) => [ability, z.boolean()])),
) as unknown as z.ZodObject<{ [Ability in keyof CisAbilities]: z.ZodBoolean }>;

export const abilitiesResponse = z.object({
  abilities: abilityFlags,
  testingTools: z.boolean(),
});
