import { Select } from 'antd';
import { useMemo } from 'react';
import { previousTaxMonth, taxMonthTitle } from '@workspace/rules';

/** How many tax months the picker offers back from the latest (six years: the records a contractor keeps). */
const MONTHS_BACK = 72;

/**
 * A tax month picked by the name HMRC gives it ('Month ending 5 November 2026'), held as its 'YYYY-MM' label;
 * typing part of the name ('November 2026') finds it. Offers `latest` and the months before it.
 */
export function TaxMonthSelect({
  value,
  latest,
  onChange,
  'aria-label': ariaLabel = 'Tax month',
}: {
  value: string | undefined;
  latest: string;
  onChange: (value: string) => void;
  'aria-label'?: string;
}) {
  const options = useMemo(() => {
    const labels = [latest];
    while (labels.length < MONTHS_BACK) labels.push(previousTaxMonth(labels[labels.length - 1] ?? latest));
    if (value && !labels.includes(value)) labels.unshift(value);
    return labels.map((label) => ({ value: label, label: taxMonthTitle(label) }));
  }, [latest, value]);
  return (
    <Select
      aria-label={ariaLabel}
      value={value}
      onChange={onChange}
      options={options}
      showSearch={{ optionFilterProp: 'label' }}
      style={{ minWidth: 260 }}
      popupMatchSelectWidth={false}
    />
  );
}
