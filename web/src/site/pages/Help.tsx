import { Anchor, Col, Grid, Row, Typography } from 'antd';
import type { ReactNode } from 'react';
import { PageBody, useOpenProjectDrawer } from '../SiteLayout';

function Topic({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} style={{ scrollMarginTop: 80 }}>
      <Typography.Title level={3}>{title}</Typography.Title>
      {children}
    </section>
  );
}

const TOPICS = [
  { key: 'signing-in', href: '#signing-in', title: 'Signing in' },
  { key: 'subcontractors', href: '#subcontractors', title: 'For subcontractors' },
  { key: 'cis', href: '#cis', title: 'CIS in Workspace' },
  { key: 'drive', href: '#drive', title: 'The drive' },
  { key: 'contact', href: '#contact', title: 'Getting in touch' },
];

/** /help: how to sign in, what subcontractors do, how CIS and the drive work here, and how to reach us. */
export function Help() {
  const openProject = useOpenProjectDrawer();
  const screens = Grid.useBreakpoint();
  return (
    <PageBody>
      <Typography.Title style={{ marginTop: 0 }}>Help</Typography.Title>
      <Row gutter={screens.md ? 48 : 0}>
        {screens.md && (
          <Col md={6}>
            <Anchor offsetTop={88} items={TOPICS} />
          </Col>
        )}
        <Col xs={24} md={18} style={{ maxWidth: 760 }}>
          <Topic id="signing-in" title="Signing in">
            <Typography.Paragraph>
              Staff sign in at <Typography.Link href="/login">Sign in</Typography.Link> with their
              organisation id, then on their organisation’s own sign-in page. Your administrator gives you the
              organisation id and your account.
            </Typography.Paragraph>
            <Typography.Paragraph>
              A session ends after 30 minutes without use and at the latest 12 hours after signing in; you
              then sign in again. Sign out of all sessions, in the status menu of the app’s header, ends your
              sessions on every device.
            </Typography.Paragraph>
            <Typography.Paragraph>
              Forgotten password or a locked account: your organisation’s sign-in page and your administrator
              look after your account.
            </Typography.Paragraph>
          </Topic>
          <Topic id="subcontractors" title="For subcontractors">
            <Typography.Paragraph>
              Your contractor invites you by email. The link in that email signs you in to your portal, where
              you submit invoices for approval, follow their status and download the payment and deduction
              statements your contractor issues you. You see only your own records.
            </Typography.Paragraph>
            <Typography.Paragraph>
              If the link no longer works, ask your contractor to send you a new one. If your contractor ends
              your portal access, it ends at once.
            </Typography.Paragraph>
          </Topic>
          <Topic id="cis" title="CIS in Workspace">
            <Typography.Paragraph>
              Tax months run from the 6th of one month to the 5th of the next, as HMRC counts them. A payment
              belongs to the tax month of its payment date. Each subcontractor’s statement for a month is due
              by the 19th of the following month; so is the monthly return.
            </Typography.Paragraph>
            <Typography.Paragraph>
              Deductions follow the subcontractor’s verification: gross (0 %), standard (20 %) or higher (30
              %), worked out on labour, never on materials.
            </Typography.Paragraph>
            <Typography.Paragraph>
              Workspace prepares and checks your CIS300 return with its declarations and keeps it ready to
              file. It has no live connection to HMRC: you file the return through HMRC’s CIS online service
              or your filing software.
            </Typography.Paragraph>
          </Topic>
          <Topic id="drive" title="The drive">
            <Typography.Paragraph>
              Files keep their versions. A share link can have a passcode, an end date and a watermark, and
              can be revoked at any time. PDFs can be signed in the browser; the signed copy is kept as a new
              version. Statements and returns from CIS are filed into the drive, in a folder per tax year.
            </Typography.Paragraph>
          </Topic>
          <Topic id="contact" title="Getting in touch">
            <Typography.Paragraph>
              Customers: your organisation’s administrator is your first contact for accounts, permissions and
              modules.
            </Typography.Paragraph>
            <Typography.Paragraph>
              Thinking of using Workspace, or of adding a module?{' '}
              <Typography.Link onClick={openProject}>Start a project</Typography.Link> and we will be in
              touch.
            </Typography.Paragraph>
          </Topic>
        </Col>
      </Row>
    </PageBody>
  );
}
