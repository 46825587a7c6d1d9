import {
  AuditOutlined,
  CalendarOutlined,
  CheckCircleOutlined,
  ExportOutlined,
  FolderOpenOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { Button, Card, Col, Collapse, Grid, Row, Space, Steps, Typography } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { FAQ } from '../faq';
import { CONTENT_WIDTH, useOpenProjectDrawer } from '../SiteLayout';

/** A home page section: its anchor, its band and the content width. */
function Section({
  id,
  title,
  intro,
  tinted,
  children,
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  tinted?: boolean;
  children: ReactNode;
}) {
  const screens = Grid.useBreakpoint();
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      // The sticky header (64 px) never covers a section's title when a link scrolls to it.
      style={{ scrollMarginTop: 64, background: tinted ? '#f5f7fa' : undefined }}
    >
      <div
        style={{
          maxWidth: CONTENT_WIDTH,
          margin: '0 auto',
          padding: screens.md === false ? '40px 16px' : '72px 24px',
        }}
      >
        <Typography.Title level={2} id={`${id}-title`} style={{ marginTop: 0 }}>
          {title}
        </Typography.Title>
        {intro && (
          <Typography.Paragraph type="secondary" style={{ fontSize: 16, maxWidth: 720 }}>
            {intro}
          </Typography.Paragraph>
        )}
        {children}
      </div>
    </section>
  );
}

/** The offer in four facts (the spec's marketing constants). */
const PROMISES = [
  { title: 'Pay per module', text: 'Only for the modules you switch on.' },
  { title: 'Live in 7-10 business days', text: 'Set up with your users, branding and data.' },
  { title: 'A full export on leaving', text: 'Your data is yours, all of it.' },
  { title: 'Termination within 24 hours', text: 'When you leave, your tenant is gone within a day.' },
];

const MODULES: { icon: ReactNode; title: string; text: string; status?: string }[] = [
  {
    icon: <AuditOutlined />,
    title: 'CIS',
    text:
      'Subcontractors with their verification status and rate, invoices with the deduction worked out, monthly ' +
      'payment and deduction statements by email, portal or print, and the monthly CIS300 return prepared and checked, ready to file.',
  },
  {
    icon: <FolderOpenOutlined />,
    title: 'Drive',
    text:
      'Folders and files with versions, share links with a passcode, an expiry and a watermark, and PDFs signed ' +
      'in the browser. CIS statements and returns are filed into it.',
  },
  {
    icon: <TeamOutlined />,
    title: 'Subcontractor portal',
    text: 'Your subcontractors sign in from an emailed link on their phone, submit invoices for approval and download their statements.',
  },
  {
    icon: <CalendarOutlined />,
    title: 'Calendar and notes',
    text: 'A shared schedule and team notes are the next modules we are building. Ask us about them.',
    status: 'In development',
  },
];

const INDUSTRIES = [
  {
    title: 'Main contractors',
    text: 'You pay subcontractors under the Construction Industry Scheme and file a return every month.',
  },
  {
    title: 'Housebuilders and developers',
    text: 'Many trades on many sites: invoices, statements and documents in one place for the office and the site.',
  },
  {
    title: 'Specialist and trade contractors',
    text: 'Groundworks, M&E, roofing, fit-out: you take on labour-only gangs and need the deductions right.',
  },
  {
    title: 'Maintenance and refurbishment firms',
    text: 'Steady work with a changing set of subcontractors, each verified and paid the right way.',
  },
];

const STEPS = [
  {
    title: 'Tell us about your business',
    content: 'Start a project: who you are, how many subcontractors you pay and what slows you down.',
  },
  {
    title: 'Choose your modules',
    content: 'We agree the modules you need and quote for them. You pay per module.',
  },
  {
    title: 'We set you up',
    content:
      'Your organisation, users and roles, your branding and colours, your subcontractors, and your invoices imported from a spreadsheet (CSV).',
  },
  {
    title: 'Go live in 7-10 business days',
    content:
      'Your team signs in with your organisation’s sign-in; your subcontractors get their portal links.',
  },
  {
    title: 'Leave whenever you want',
    content: 'A full export of your data, and your tenant terminated within 24 hours.',
  },
];

/** Scrolls to the section the address names (#industries...) once the page has rendered it. */
function useScrollToHash() {
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView();
  }, []);
}

export function Home() {
  const openProject = useOpenProjectDrawer();
  const screens = Grid.useBreakpoint();
  const compact = screens.md === false;
  useScrollToHash();
  return (
    <>
      <section id="top" aria-labelledby="top-title" style={{ scrollMarginTop: 64 }}>
        <div
          style={{
            maxWidth: CONTENT_WIDTH,
            margin: '0 auto',
            padding: compact ? '40px 16px 32px' : '88px 24px 64px',
          }}
        >
          <Typography.Title
            id="top-title"
            style={{ fontSize: compact ? 32 : 48, maxWidth: 820, marginTop: 0 }}
          >
            CIS, documents and a subcontractor portal, built around your business
          </Typography.Title>
          <Typography.Paragraph style={{ fontSize: compact ? 16 : 19, maxWidth: 720 }}>
            Workspace is a modular, bespoke-as-a-service workspace for UK construction contractors. You pay
            per module, we have you live in 7-10 business days, you get a full export on leaving, and your
            tenant is terminated within 24 hours when you go.
          </Typography.Paragraph>
          <Space wrap size="middle" style={{ marginTop: 8 }}>
            <Button type="primary" size="large" onClick={openProject}>
              Start a project
            </Button>
            <Button size="large" href="/login">
              Sign in
            </Button>
          </Space>
          <Row gutter={[16, 16]} style={{ marginTop: compact ? 32 : 56 }}>
            {PROMISES.map((promise) => (
              <Col key={promise.title} xs={24} sm={12} lg={6}>
                <Card size="small" style={{ height: '100%' }}>
                  <Space align="start">
                    <CheckCircleOutlined style={{ color: '#52c41a', fontSize: 18, marginTop: 3 }} />
                    <div>
                      <Typography.Text strong>{promise.title}</Typography.Text>
                      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
                        {promise.text}
                      </Typography.Paragraph>
                    </div>
                  </Space>
                </Card>
              </Col>
            ))}
          </Row>
        </div>
      </section>

      <Section
        id="industries"
        title="Built for UK construction"
        intro="For contractors who pay subcontractors under the Construction Industry Scheme and would rather spend the month on their sites than on paperwork."
        tinted
      >
        <Row gutter={[16, 16]}>
          {INDUSTRIES.map((industry) => (
            <Col key={industry.title} xs={24} sm={12}>
              <Card title={industry.title} style={{ height: '100%' }}>
                {industry.text}
              </Card>
            </Col>
          ))}
        </Row>
        <Typography.Title level={3} style={{ marginTop: 48 }}>
          The modules
        </Typography.Title>
        <Row gutter={[16, 16]}>
          {MODULES.map((module) => (
            <Col key={module.title} xs={24} md={12}>
              <Card style={{ height: '100%' }}>
                <Space align="start" size="middle">
                  <span style={{ fontSize: 24, color: '#1677ff' }}>{module.icon}</span>
                  <div>
                    <Typography.Title level={4} style={{ marginTop: 0 }}>
                      {module.title}{' '}
                      {module.status && (
                        <Typography.Text type="secondary" style={{ fontSize: 14, fontWeight: 400 }}>
                          ({module.status})
                        </Typography.Text>
                      )}
                    </Typography.Title>
                    <Typography.Paragraph style={{ margin: 0 }}>{module.text}</Typography.Paragraph>
                  </div>
                </Space>
              </Card>
            </Col>
          ))}
        </Row>
      </Section>

      <Section
        id="process"
        title="From first call to live in 7-10 business days"
        intro="Bespoke as a service: we shape the workspace around how you already work, then run it for you."
      >
        <Steps
          orientation="vertical"
          items={STEPS.map((step) => ({ title: step.title, content: step.content, status: 'process' }))}
        />
      </Section>

      <Section id="about" title="About Workspace" tinted>
        <Row gutter={[32, 24]}>
          <Col xs={24} md={12}>
            <Typography.Paragraph style={{ fontSize: 16 }}>
              Workspace brings a contractor’s CIS work, documents and subcontractors into one place, one
              module at a time. Each organisation has its own tenant: its data is kept apart from every
              other’s, in its region (the UK unless agreed otherwise).
            </Typography.Paragraph>
            <Typography.Paragraph style={{ fontSize: 16 }}>
              Dates are in UK format and weeks start on Monday. Money is kept to the penny, and CIS tax months
              run from the 6th to the 5th, as HMRC counts them.
            </Typography.Paragraph>
          </Col>
          <Col xs={24} md={12}>
            <Card>
              <Space orientation="vertical">
                <Typography.Text strong>
                  <ExportOutlined /> No lock-in
                </Typography.Text>
                <Typography.Text>
                  When you leave you get a full export of your data, and we terminate your tenant within 24
                  hours.
                </Typography.Text>
                <Typography.Link href="/vision">Read our vision</Typography.Link>
              </Space>
            </Card>
          </Col>
        </Row>
      </Section>

      <Section id="faq" title="Frequently asked questions">
        <Collapse
          data-testid="faq"
          items={FAQ.map((item, index) => ({
            key: String(index),
            label: item.question,
            children: <Typography.Paragraph style={{ margin: 0 }}>{item.answer}</Typography.Paragraph>,
          }))}
        />
        <Space wrap style={{ marginTop: 32 }}>
          <Typography.Text>Something else?</Typography.Text>
          <Button type="primary" onClick={openProject}>
            Start a project
          </Button>
          <Button type="link" href="/help">
            Help
          </Button>
        </Space>
      </Section>
    </>
  );
}
