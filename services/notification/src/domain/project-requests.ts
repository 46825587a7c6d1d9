// The public site's project request (the spec's sendProjectRequest: name, email, company, message), written once and
// browser-safe (zod and a pure address check only): the site's Start a project drawer validates its fields with it,
// the bff's public route and the notification service parse the request with it (exported with the answer's schema
// by ../http/project-requests.schemas.ts as `@workspace/notification/project-requests`).
import { containsTaxIdentifier } from '@workspace/rules';
import { z } from 'zod';
import { isEmailAddress } from './addresses.js';

/** What the drawer and the API say about a field that is not right. */
export const PROJECT_REQUEST_MESSAGES = {
  nameRequired: 'Please enter your name',
  emailRequired: 'Please enter your email',
  emailInvalid: 'Please enter a valid email address, e.g. name@example.com',
  singleLine: 'Must be a single line',
  /** A visitor's words never carry a UTR or NINO (docs/privacy.md): the same words as the CIS forms. */
  taxIdentifier: 'Must not contain a tax reference (10-digit number) or a National Insurance number',
  tooLong: (max: number) => `Must be at most ${max} characters`,
} as const;

/** The longest each field may be (characters, after trimming). */
export const PROJECT_REQUEST_LIMITS = { name: 200, email: 320, company: 200, message: 5_000 } as const;

const singleLine = (value: string) => !/[\r\n]/.test(value);
const noTaxIdentifier = (value: string) => !containsTaxIdentifier(value);

/** A value the form may leave empty or out: '' and missing are the same. */
const optionalText = (max: number, options: { singleLine?: boolean } = {}) =>
  z
    .string()
    .trim()
    .max(max, PROJECT_REQUEST_MESSAGES.tooLong(max))
    .refine((value) => !options.singleLine || singleLine(value), PROJECT_REQUEST_MESSAGES.singleLine)
    .refine(noTaxIdentifier, PROJECT_REQUEST_MESSAGES.taxIdentifier)
    .optional()
    .transform((value) => value ?? '');

export const projectRequestFields = {
  /** Required; one line (it names the e-mail to the sales inbox). */
  name: z
    .string({ error: PROJECT_REQUEST_MESSAGES.nameRequired })
    .trim()
    .min(1, PROJECT_REQUEST_MESSAGES.nameRequired)
    .max(PROJECT_REQUEST_LIMITS.name, PROJECT_REQUEST_MESSAGES.tooLong(PROJECT_REQUEST_LIMITS.name))
    .refine(singleLine, PROJECT_REQUEST_MESSAGES.singleLine)
    .refine(noTaxIdentifier, PROJECT_REQUEST_MESSAGES.taxIdentifier),
  /** Required, an address such as name@example.com ('a@' and 'a@b' are not): the sales team replies to it. */
  email: z
    .string({ error: PROJECT_REQUEST_MESSAGES.emailRequired })
    .trim()
    .min(1, PROJECT_REQUEST_MESSAGES.emailRequired)
    .max(PROJECT_REQUEST_LIMITS.email, PROJECT_REQUEST_MESSAGES.tooLong(PROJECT_REQUEST_LIMITS.email))
    .refine(isEmailAddress, PROJECT_REQUEST_MESSAGES.emailInvalid),
  /** Optional. */
  company: optionalText(PROJECT_REQUEST_LIMITS.company, { singleLine: true }),
  /** Optional; several lines allowed. */
  message: optionalText(PROJECT_REQUEST_LIMITS.message),
};

/** sendProjectRequest's body. Unknown keys are ignored. */
export const projectRequestBody = z.object(projectRequestFields);

/** What the form sends (company and message may be left out or empty). */
export type ProjectRequestInput = z.input<typeof projectRequestBody>;
/** The request as parsed: trimmed, company and message '' when not given. */
export type ProjectRequest = z.output<typeof projectRequestBody>;

/** The first problem with one field's value, or undefined when it is fine (the drawer's per-field check). */
export function projectRequestFieldError(
  field: keyof typeof projectRequestFields,
  value: unknown,
): string | undefined {
  const parsed = projectRequestFields[field].safeParse(value);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}
