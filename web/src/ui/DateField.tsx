import { DatePicker } from 'antd';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';

// DD/MM/YYYY typed or picked (antd's date parsing of typed text needs the plugin).
dayjs.extend(customParseFormat);

export const UK_DATE_FORMAT = 'DD/MM/YYYY';

/**
 * A calendar date in en-GB form (DD/MM/YYYY, whatever the browser's own locale), held as 'YYYY-MM-DD' (what the
 * API takes). Works inside an antd Form.Item (value, onChange and id come from it).
 */
export function DateField({
  value,
  onChange,
  id,
  allowClear = true,
  max,
  'aria-label': ariaLabel,
}: {
  value?: string | null;
  onChange?: (value: string) => void;
  id?: string;
  allowClear?: boolean;
  /** The latest date offered ('YYYY-MM-DD'): later days are disabled (a payment date: today). */
  max?: string;
  'aria-label'?: string;
}) {
  const parsed = value ? dayjs(value, 'YYYY-MM-DD', true) : null;
  return (
    <DatePicker
      id={id}
      aria-label={ariaLabel}
      format={UK_DATE_FORMAT}
      placeholder={UK_DATE_FORMAT}
      allowClear={allowClear}
      value={parsed?.isValid() ? parsed : null}
      {...(max ? { disabledDate: (date: dayjs.Dayjs) => date.format('YYYY-MM-DD') > max } : {})}
      onChange={(date) => {
        onChange?.(date ? date.format('YYYY-MM-DD') : '');
      }}
      style={{ width: '100%' }}
    />
  );
}

/** A tax month label 'YYYY-MM' picked as a month (MM/YYYY). */
export function MonthField({
  value,
  onChange,
  'aria-label': ariaLabel,
}: {
  value?: string;
  onChange: (value: string | undefined) => void;
  'aria-label'?: string;
}) {
  const parsed = value ? dayjs(value, 'YYYY-MM', true) : null;
  return (
    <DatePicker
      picker="month"
      aria-label={ariaLabel}
      format="MM/YYYY"
      allowClear={false}
      value={parsed?.isValid() ? parsed : null}
      onChange={(date) => {
        onChange(date ? date.format('YYYY-MM') : undefined);
      }}
      style={{ width: 150 }}
    />
  );
}
