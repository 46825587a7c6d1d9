import type { ReturnPeriod } from '@workspace/cis/contract';
import { taxMonthTitle } from '@workspace/rules';
import { Select } from 'antd';

/** Picks the tax month in view among every month since the module was switched on, with where each stands. */
export function PeriodPicker({
  periods,
  value,
  onChange,
}: {
  periods: ReturnPeriod[];
  value: string;
  onChange: (taxMonth: string) => void;
}) {
  return (
    <Select
      aria-label="Tax month"
      data-testid="period-picker"
      value={value}
      onChange={onChange}
      showSearch={{ optionFilterProp: 'title' }}
      style={{ minWidth: 260, maxWidth: '100%' }}
      options={periods.map((period) => ({
        value: period.label,
        title: taxMonthTitle(period.label),
        label: `${taxMonthTitle(period.label)} · ${period.statusText}`,
      }))}
    />
  );
}
