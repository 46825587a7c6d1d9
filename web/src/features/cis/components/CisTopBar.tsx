import {
  AuditOutlined,
  DownloadOutlined,
  ImportOutlined,
  PlusOutlined,
  SearchOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { Breadcrumb, Button, Grid, Input, Select, Space, theme, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useToast } from '../../../ui/feedback';
import { useCis } from '../context';
import { downloadFile } from '../download';
import { invoicePeriodOptions, invoicePeriods, useUrlFilter } from './filters';
import { InviteModal } from './InviteModal';
import { cisMode, cisSection, sectionTitles } from './sections';

function SearchBox({ placeholder, compact }: { placeholder: string; compact: boolean }) {
  const [params, setParams] = useSearchParams();
  const current = params.get('search') ?? '';
  const [text, setText] = useState(current);
  useEffect(() => {
    setText(current);
  }, [current]);
  useEffect(() => {
    if (text === current) return;
    const timer = window.setTimeout(() => {
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          if (text) next.set('search', text);
          else next.delete('search');
          next.delete('page');
          return next;
        },
        { replace: true },
      );
    }, 300);
    return () => {
      window.clearTimeout(timer);
    };
  }, [text, current, setParams]);
  return (
    <Input
      allowClear
      prefix={<SearchOutlined />}
      placeholder={placeholder}
      aria-label={placeholder}
      value={text}
      onChange={(event) => {
        setText(event.target.value);
      }}
      style={{ width: compact ? '100%' : 260 }}
    />
  );
}

/** The top bar's period filter: the list's all, current and previous, and also quarter and year (cis.md §5). */
function PeriodFilter() {
  const [period, setPeriod] = useUrlFilter('period', 'all', invoicePeriods);
  return (
    <Select
      aria-label="Top bar period filter"
      data-testid="top-bar-period"
      value={period}
      onChange={setPeriod}
      style={{ width: 160 }}
      options={invoicePeriodOptions}
    />
  );
}

/**
 * The CIS top bar (3.5rem): the section from the path (its title and breadcrumbs), search in list mode, and the New,
 * Import, Export and Returns actions the caller's abilities allow. Its mode (list, detail or form) is in
 * `data-mode`, not shown. At a phone's width it wraps: the title on its own line, the tools below it.
 */
export function CisTopBar() {
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { abilities } = useCis();
  const toast = useToast();
  const { token } = theme.useToken();
  const compact = !Grid.useBreakpoint().md;
  const [inviteOpen, setInviteOpen] = useState(false);
  const section = cisSection(location.pathname);
  const mode = cisMode(location.pathname);
  const canSeeReturns = abilities.canSubmit || abilities.canCompile;

  const exportCsv = (path: string, name: string) => {
    const query = new URLSearchParams();
    for (const key of ['search', 'status', 'period', 'type']) {
      const value = params.get(key);
      if (value) query.set(key, value);
    }
    const text = query.toString();
    downloadFile(`/api/cis/${path}${text ? `?${text}` : ''}`, name).catch((error: unknown) => {
      toast.error(error instanceof Error ? error.message : 'Export failed');
    });
  };

  // Shown only to callers the service lets export (cis.io.export), never a button that can only fail.
  const exportButton = (path: string, name: string, label: string) => (
    <Button
      key="export"
      icon={<DownloadOutlined />}
      onClick={() => {
        exportCsv(path, name);
      }}
    >
      {label}
    </Button>
  );

  const goButton = (key: string, label: string, icon: React.ReactNode, to: string, primary = false) => (
    <Button key={key} type={primary ? 'primary' : undefined} icon={icon} onClick={() => void navigate(to)}>
      {label}
    </Button>
  );
  const newInvoiceButton = () => goButton('new', 'New Invoice', <PlusOutlined />, '/cis/invoices/new', true);

  const actions: React.ReactNode[] = [];
  if (mode === 'list' && section === 'subcontractors') {
    if (abilities.canWriteSubcontractors)
      actions.push(goButton('new', 'New Subcontractor', <PlusOutlined />, '/cis/subcontractors/new', true));
    if (abilities.canInvite)
      actions.push(
        <Button
          key="invite"
          icon={<SendOutlined />}
          onClick={() => {
            setInviteOpen(true);
          }}
        >
          Invite to Portal
        </Button>,
      );
    if (abilities.canExport)
      actions.push(exportButton('subcontractors/export.csv', 'cis-subcontractors.csv', 'Export'));
  }
  if (mode === 'list' && section === 'invoices') {
    if (abilities.canWrite) actions.push(newInvoiceButton());
    if (abilities.canImport)
      actions.push(goButton('import', 'Import', <ImportOutlined />, '/cis/invoices/import'));
    if (abilities.canExport)
      actions.push(exportButton('invoices/export.csv', 'cis-invoices.csv', 'Export CSV'));
  }
  if (mode === 'list' && section === 'dashboard' && abilities.canWrite) actions.push(newInvoiceButton());
  if (
    mode === 'list' &&
    (section === 'invoices' || section === 'dashboard' || section === 'statements') &&
    canSeeReturns
  )
    actions.push(goButton('returns', 'Returns', <AuditOutlined />, '/cis/returns'));

  const crumbs = [{ title: <Link to="/cis">CIS</Link> }];
  if (section !== 'dashboard')
    crumbs.push({ title: <Link to={`/cis/${section}`}>{sectionTitles[section]}</Link> });
  if (mode !== 'list') {
    const last = location.pathname.split('/').filter(Boolean).pop() ?? '';
    crumbs.push({
      title: (
        <span>
          {last === 'new' ? 'New' : last === 'edit' ? 'Edit' : last === 'import' ? 'Import' : 'Details'}
        </span>
      ),
    });
  }

  return (
    <div
      data-testid="cis-top-bar"
      data-section={section}
      data-mode={mode}
      style={{
        ...(compact
          ? { minHeight: '3.5rem', flexWrap: 'wrap', gap: 8, paddingInline: 12, paddingBlock: 8 }
          : { height: '3.5rem', gap: 16, paddingInline: 16 }),
        display: 'flex',
        alignItems: 'center',
        marginBottom: 16,
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
      }}
    >
      <Space size="middle" style={{ minWidth: 0, flexBasis: compact ? '100%' : undefined }} wrap={compact}>
        <Typography.Text strong style={{ fontSize: 16, whiteSpace: 'nowrap' }} data-testid="page-title">
          {sectionTitles[section]}
        </Typography.Text>
        <Breadcrumb items={crumbs} />
      </Space>
      {!compact && <div style={{ flex: 1 }} />}
      {mode === 'list' && section === 'subcontractors' && (
        <SearchBox placeholder="Search subcontractors" compact={compact} />
      )}
      {mode === 'list' && section === 'invoices' && <PeriodFilter />}
      {mode === 'list' && section === 'invoices' && (
        <SearchBox placeholder="Search invoices" compact={compact} />
      )}
      <Space wrap={compact}>{actions}</Space>
      {inviteOpen && (
        <InviteModal
          onClose={() => {
            setInviteOpen(false);
          }}
        />
      )}
    </div>
  );
}
