import type { ActivityEntry } from '@workspace/cis/contract';
import {
  AuditOutlined,
  BarChartOutlined,
  FileAddOutlined,
  FileTextOutlined,
  SettingOutlined,
  UserAddOutlined,
} from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  List,
  Result,
  Row,
  Skeleton,
  Space,
  Typography,
} from 'antd';
import { taxMonthTitle } from '@workspace/rules';
import { Link } from 'react-router';
import { useCisDashboardQuery } from './api';
import { CisQueryError } from './components/CisQueryError';
import { StatCard } from '../../ui/StatCard';
import { useCis } from './context';
import { pounds, ukDate, ukDateTime } from '../../ui/format';

function activityText(entry: ActivityEntry): string {
  if (entry.summary) return entry.summary;
  return [entry.action, entry.targetType, entry.targetId].filter(Boolean).join(' ');
}

/**
 * Who did it, in the words cis decides for this reader (services/cis/src/commands/performers.ts, the one place): 'by
 * you', 'by the system', another user by name, a subcontractor's own portal actions 'by <name> (portal)'; ids are
 * never shown.
 */
function performerText(entry: ActivityEntry): string | undefined {
  if (!entry.performedBy) return undefined;
  return entry.performedByLabel;
}

/** The module's default section: setup prompt, or alerts, tiles, quick actions, tax month and recent activity. */
export function CisDashboard() {
  const { abilities } = useCis();
  const { data, error, isLoading } = useCisDashboardQuery(undefined);

  if (isLoading) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (error || !data)
    return <CisQueryError error={error} prefix="Error loading dashboard: " action="view the CIS dashboard" />;

  if (data.setupRequired)
    return (
      <Result
        status="info"
        icon={<SettingOutlined />}
        title="CIS Module Setup Required"
        subTitle="Configure your CIS settings to start using the module."
        extra={
          abilities.canManage ? (
            <Link to="/cis/settings">
              <Button type="primary">Configure Settings</Button>
            </Link>
          ) : undefined
        }
      />
    );

  const quickActions = [
    abilities.canWrite && { to: '/cis/invoices/new', label: 'New Invoice', icon: <FileAddOutlined /> },
    abilities.canWriteSubcontractors && {
      to: '/cis/subcontractors/new',
      label: 'Add Subcontractor',
      icon: <UserAddOutlined />,
    },
    abilities.canApprove && { to: '/cis/statements', label: 'Statements', icon: <FileTextOutlined /> },
    abilities.canSubmit && { to: '/cis/returns', label: 'Monthly Return', icon: <AuditOutlined /> },
  ].filter((action) => action !== false);

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      {data.alerts.map((alert) => (
        <Alert
          key={`${alert.kind}-${alert.label}-${alert.date}`}
          type={alert.severity === 'critical' ? 'error' : 'warning'}
          showIcon
          title={alert.message}
          description={`Due ${ukDate(alert.date)} (${alert.daysRemaining < 0 ? `${-alert.daysRemaining} days overdue` : `${alert.daysRemaining} days remaining`})`}
          data-severity={alert.severity}
          action={
            // A past month's return: open it on the Returns page (issue 13).
            alert.kind === 'filing' && alert.daysRemaining < 0 && abilities.canSubmit ? (
              <Link to={`/cis/returns?month=${alert.label}`}>
                <Button size="small">Open return</Button>
              </Link>
            ) : undefined
          }
        />
      ))}
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={12} lg={8} xl={4}>
          <StatCard title="Active Subcontractors" value={data.tiles.activeSubcontractors} />
        </Col>
        <Col xs={24} sm={12} lg={8} xl={5}>
          <StatCard title="Draft Invoices" value={data.tiles.draftInvoices} />
        </Col>
        <Col xs={24} sm={12} lg={8} xl={5}>
          {/* Invoices subcontractors sent through the portal, waiting for approval or rejection (issue 13). */}
          <StatCard title="Portal Pending" value={data.tiles.portalPending} />
        </Col>
        <Col xs={24} sm={12} lg={12} xl={5}>
          <StatCard title="Pending Statements" value={data.tiles.pendingStatements} />
        </Col>
        <Col xs={24} sm={24} lg={12} xl={5}>
          <StatCard title="Current Month CIS" value={pounds(data.tiles.currentMonthCisP)} />
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title="Quick Actions" size="small" style={{ height: '100%' }}>
            {quickActions.length === 0 ? (
              <Typography.Text type="secondary">
                No actions are available with your permissions.
              </Typography.Text>
            ) : (
              <Space wrap>
                {quickActions.map((action) => (
                  <Link key={action.to} to={action.to}>
                    <Button icon={action.icon}>{action.label}</Button>
                  </Link>
                ))}
              </Space>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title="Tax Month Overview" size="small" style={{ height: '100%' }}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label="Period">{taxMonthTitle(data.period.label)}</Descriptions.Item>
              <Descriptions.Item label="Statement Deadline">
                {ukDate(data.period.deadlines.statements)}
              </Descriptions.Item>
              <Descriptions.Item label="Filing Deadline">
                {ukDate(data.period.deadlines.filing)}
              </Descriptions.Item>
              <Descriptions.Item label="Payment Deadline">
                {ukDate(data.period.deadlines.payment)}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
      </Row>
      <Card
        title="Recent Activity"
        size="small"
        extra={
          <Link to="/cis/analytics">
            <Button type="link" icon={<BarChartOutlined />}>
              Analytics
            </Button>
          </Link>
        }
      >
        {data.recentActivity.length === 0 ? (
          <Empty description="No recent activity" image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <List
            size="small"
            dataSource={data.recentActivity}
            renderItem={(entry) => (
              <List.Item
                key={entry.id}
                extra={<Typography.Text type="secondary">{ukDateTime(entry.performedAt)}</Typography.Text>}
              >
                <List.Item.Meta title={activityText(entry)} description={performerText(entry)} />
              </List.Item>
            )}
          />
        )}
      </Card>
    </Space>
  );
}
