// Words a count goes with, in plain British English: '1 subcontractor', '2 subcontractors', '1 row', '3 entries'.

/** The count and the noun in the right number: plural(1, 'invoice') → '1 invoice'; plural(2, 'entry', 'entries'). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString('en-GB')} ${count === 1 ? singular : pluralForm}`;
}
