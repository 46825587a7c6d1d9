/**
 * The home page's FAQ: six questions (the spec shows no wording: these are ours, recorded in docs/site.md). Every
 * answer says only what the product does or what we commit to.
 */
export const FAQ: { question: string; answer: string }[] = [
  {
    question: 'How is Workspace priced?',
    answer:
      'You pay per module: only for the modules your business switches on, such as CIS or the document drive. ' +
      'Tell us what you need through Start a project and we quote for those modules; there is nothing to pay for a module you do not use.',
  },
  {
    question: 'How long does it take to go live?',
    answer:
      'Seven to ten business days from the day we agree the modules. In that time we set up your organisation, ' +
      'your users and their roles and your branding, set up your subcontractors and bring in your invoices from a spreadsheet (CSV).',
  },
  {
    question: 'Does Workspace file my CIS return with HMRC?',
    answer:
      'Not directly: Workspace has no live connection to HMRC. It works out the deductions, issues the monthly ' +
      'payment and deduction statements, and prepares and checks your monthly CIS300 return with its declarations, ' +
      'ready to file. You then file it through HMRC’s CIS online service or your filing software by the deadline.',
  },
  {
    question: 'Can my subcontractors use it?',
    answer:
      'Yes, through their own portal. You invite a subcontractor by email; they sign in from the link, submit ' +
      'invoices for you to approve and download the statements you issue them. They see only their own records, and ' +
      'their access ends as soon as you revoke it.',
  },
  {
    question: 'What happens to our data if we leave?',
    answer:
      'You get a full export of your data, and your tenant (your organisation’s space with everything in it) is ' +
      'terminated within 24 hours of your request.',
  },
  {
    question: 'How do you protect tax references and National Insurance numbers?',
    answer:
      'UTRs and National Insurance numbers are stored encrypted and shown masked (a UTR’s last four digits, a ' +
      'NINO’s first two and last character). Only people you give the permission to can see them in full, and every ' +
      'such view is recorded. Each organisation’s data is kept apart from every other’s.',
  },
];
