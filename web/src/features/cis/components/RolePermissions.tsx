import type { RoleBundle } from '@workspace/cis/contract';
import { Alert, App, Button, Checkbox, Skeleton, Space, Table } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { errorMessage } from '../../../ui/problem';
import { useCisRolePermissionsQuery, useSaveCisRolePermissionsMutation } from '../api';
import { cisScopeName } from '../domain';
import { CisQueryError } from './CisQueryError';

function Findings({
  type,
  title,
  messages,
}: {
  type: 'error' | 'warning';
  title: string;
  messages: string[];
}) {
  if (messages.length === 0) return null;
  return (
    <Alert
      type={type}
      showIcon
      title={title}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      }
    />
  );
}

/**
 * The role-bundle checklist (cis.md §6): one row per checklist permission, named as what it lets a role do (the
 * scope string only in `data-scope`), one column per role bundle, with the checker's errors and warnings.
 */
export function RolePermissions() {
  const { notification } = App.useApp();
  const { data, error, isLoading } = useCisRolePermissionsQuery(undefined);
  const [save, saveState] = useSaveCisRolePermissionsMutation();
  const [drafts, setDrafts] = useState<Record<string, string[]>>({});

  useEffect(() => {
    setDrafts({});
  }, [data]);

  const bundles = useMemo(() => data?.bundles ?? [], [data]);
  if (isLoading) return <Skeleton active />;
  if (error || !data)
    return (
      <CisQueryError
        error={error}
        prefix="Error loading role permissions: "
        action="manage CIS role permissions"
      />
    );

  const scopesOf = (bundle: RoleBundle) => drafts[bundle.id] ?? bundle.scopes;
  const changed = bundles.filter((bundle) => drafts[bundle.id] !== undefined);
  const toggle = (bundle: RoleBundle, scope: string, on: boolean) => {
    const current = scopesOf(bundle);
    setDrafts((previous) => ({
      ...previous,
      [bundle.id]: on ? [...current, scope] : current.filter((item) => item !== scope),
    }));
  };

  const saveAll = async () => {
    try {
      for (const bundle of changed) await save({ bundleId: bundle.id, scopes: scopesOf(bundle) }).unwrap();
      notification.success({
        title: 'Role Permissions Saved',
        description: 'The role permissions have been saved.',
      });
    } catch (failure) {
      notification.error({
        title: 'Save Failed',
        description: errorMessage(failure, 'Failed to save role permissions'),
      });
    }
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="role-permissions">
      <Findings type="error" title="Errors" messages={data.errors} />
      <Findings type="warning" title="Warnings" messages={data.warnings} />
      <Table
        rowKey="scope"
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={data.scopes.map((scope) => ({ scope, name: cisScopeName(scope) }))}
        onRow={(row) => ({ 'data-scope': row.scope }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: 'Permission', dataIndex: 'name', key: 'name', fixed: 'left' },
          ...bundles.map((bundle) => ({
            title: bundle.name,
            key: bundle.id,
            align: 'center' as const,
            render: (_: unknown, row: { scope: string; name: string }) => (
              <Checkbox
                aria-label={`${bundle.name}: ${row.name}`}
                checked={scopesOf(bundle).includes(row.scope)}
                onChange={(event) => {
                  toggle(bundle, row.scope, event.target.checked);
                }}
              />
            ),
          })),
        ]}
      />
      <Button disabled={changed.length === 0} loading={saveState.isLoading} onClick={() => void saveAll()}>
        Save Role Permissions
      </Button>
    </Space>
  );
}
