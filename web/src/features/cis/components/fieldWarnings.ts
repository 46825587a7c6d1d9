import type { FormRule } from 'antd';

/**
 * A warning beside a field (antd's warningOnly rule: shown in amber as the user types, never blocking the save), from
 * one of @workspace/rules' checks: utrWarning, vatNumberWarning, accountsOfficeRefWarning (issue 13).
 */
export function warningRule(check: (value: string) => string | null): FormRule {
  return {
    warningOnly: true,
    validator: (_rule, value: unknown) => {
      const warning = typeof value === 'string' && value.trim() ? check(value) : null;
      return warning ? Promise.reject(new Error(warning)) : Promise.resolve();
    },
  };
}
