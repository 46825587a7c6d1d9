import { z } from 'zod';

const settingsSchema = z.object({
  active: z.boolean(),
  companyName: z.string(),
  employerRef: z.string(),
  accountsOfficeRef: z.string(),
  utrMasked: z.string(),
  hasUtr: z.boolean(),
  vatScheme: z.enum(['standard', 'reduced', 'zero', 'flat']),
  emailStatements: z.boolean(),
  warningDays: z.number(),
  statementDeadlineDays: z.number(),
  emailFrom: z.string(),
  emailReplyTo: z.string(),
  statementFooter: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const settingsResponse = z.object({ settings: settingsSchema, readiness: z.array(z.string()) });

export const settingsInput = z.object({
  active: z.boolean(),
  companyName: z.string().max(200),
  employerRef: z.string().max(20),
  accountsOfficeRef: z.string().max(20),
  utr: z.string().max(20).optional(),
  vatScheme: z.enum(['standard', 'reduced', 'zero', 'flat']),
  emailStatements: z.boolean(),
  warningDays: z.number().int(),
  statementDeadlineDays: z.number().int(),
  emailFrom: z.string().max(200).default(''),
  emailReplyTo: z.string().max(200).default(''),
  statementFooter: z.string().max(500).default(''),
});

export const rolePermissionsResponse = z.object({
  bundles: z.array(z.object({ id: z.string(), name: z.string(), scopes: z.array(z.string()) })),
  scopes: z.array(z.string()),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
});

export const bundleParams = z.object({ bundleId: z.string().max(41) });

export const bundleScopesBody = z.object({ scopes: z.array(z.string().startsWith('cis.')).max(40) });

export const abilitiesResponse = z.object({
  abilities: z.record(z.string(), z.boolean()),
  testingTools: z.boolean(),
});
