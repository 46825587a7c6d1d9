import { Typography } from 'antd';
import { PageBody } from '../SiteLayout';

/** /vision: why the product is built the way it is. */
export function Vision() {
  return (
    <PageBody narrow>
      <Typography.Title style={{ marginTop: 0 }}>Our vision</Typography.Title>
      <Typography.Paragraph style={{ fontSize: 18 }}>
        A contractor should get software that fits the way the business already works, in days rather than
        after a year-long IT project, and should be free to leave with everything.
      </Typography.Paragraph>

      <Typography.Title level={3}>Bespoke, as a service</Typography.Title>
      <Typography.Paragraph>
        Off-the-shelf packages make you work their way; custom software takes months and leaves you owning
        code you cannot maintain. Workspace sits between the two: one product made of modules, shaped around
        your business when we set you up, and run for you afterwards.
      </Typography.Paragraph>

      <Typography.Title level={3}>Pay for what you use</Typography.Title>
      <Typography.Paragraph>
        You pay per module. A contractor who needs CIS and nothing else pays for CIS; adding the drive or the
        next module later is a conversation, not a migration.
      </Typography.Paragraph>

      <Typography.Title level={3}>Live in 7-10 business days</Typography.Title>
      <Typography.Paragraph>
        We commit to having you live within 7-10 business days of agreeing your modules: your organisation,
        users and roles, your branding and your data in place, and your subcontractors invited to their
        portal.
      </Typography.Paragraph>

      <Typography.Title level={3}>No lock-in</Typography.Title>
      <Typography.Paragraph>
        Your data is yours. When you leave you get a full export of it, and we terminate your tenant within 24
        hours, so nothing of yours stays with us.
      </Typography.Paragraph>

      <Typography.Title level={3}>The paperwork of a construction business in one place</Typography.Title>
      <Typography.Paragraph>
        Today that means the Construction Industry Scheme from verification to the monthly return, the
        documents that go with it, and a portal where subcontractors submit invoices and collect their
        statements from their phones on site. A shared calendar and team notes are the next modules we are
        building.
      </Typography.Paragraph>

      <Typography.Title level={3}>Careful with what matters most</Typography.Title>
      <Typography.Paragraph>
        Tax references and National Insurance numbers are encrypted, masked on screen and shown in full only
        to the people you choose, and every such view is recorded. Each organisation’s data is kept apart from
        every other’s. The details are in our{' '}
        <Typography.Link href="/privacy">privacy notice</Typography.Link>.
      </Typography.Paragraph>
    </PageBody>
  );
}
