import { Typography } from 'antd';
import { PageBody } from '../SiteLayout';

/** /terms: the service's terms in plain English. */
export function Terms() {
  return (
    <PageBody narrow>
      <Typography.Title style={{ marginTop: 0 }}>Terms of service</Typography.Title>
      <Typography.Paragraph type="secondary">
        These terms say, in plain English, what we provide and what we commit to. Your order (the modules you
        chose and their prices) sits alongside them.
      </Typography.Paragraph>

      <Typography.Title level={3}>1. The service</Typography.Title>
      <Typography.Paragraph>
        Workspace is an online workspace for construction contractors, made of modules (today: CIS, the drive
        and the subcontractor portal). Your organisation gets its own tenant: a space of its own whose data is
        kept apart from every other organisation’s.
      </Typography.Paragraph>

      <Typography.Title level={3}>2. Modules and fees</Typography.Title>
      <Typography.Paragraph>
        You pay per module, at the prices in your order, for the modules switched on for your organisation.
        Adding or removing a module changes what you pay from then on.
      </Typography.Paragraph>

      <Typography.Title level={3}>3. Going live</Typography.Title>
      <Typography.Paragraph>
        We have your workspace live within 7-10 business days of agreeing your modules, provided we have what
        we asked you for to set it up (such as your users and your subcontractor and invoice data).
      </Typography.Paragraph>

      <Typography.Title level={3}>4. Your data</Typography.Title>
      <Typography.Paragraph>
        Your data stays yours. We hold and process it only to provide the service to you, in your tenant’s
        region, as our <Typography.Link href="/privacy">privacy notice</Typography.Link> describes.
      </Typography.Paragraph>

      <Typography.Title level={3}>5. CIS and HMRC</Typography.Title>
      <Typography.Paragraph>
        Workspace works out deductions, issues statements and prepares your monthly CIS300 return ready to
        file. It does not connect to HMRC: you file the return yourself, through HMRC’s CIS online service or
        your filing software. As the contractor you remain responsible to HMRC for verifying subcontractors,
        the deductions you make and pay over, and filing your returns on time.
      </Typography.Paragraph>

      <Typography.Title level={3}>6. Your users</Typography.Title>
      <Typography.Paragraph>
        Your administrators decide who in your organisation may do what, and which subcontractors have portal
        access. Keep sign-in details to yourselves and tell us at once if you think an account has been
        misused.
      </Typography.Paragraph>

      <Typography.Title level={3}>7. Leaving</Typography.Title>
      <Typography.Paragraph>
        You may leave at any time. When you do, you get a full export of your data, and we terminate your
        tenant, with the data in it, within 24 hours of your request.
      </Typography.Paragraph>

      <Typography.Title level={3}>8. Fair use</Typography.Title>
      <Typography.Paragraph>
        Do not use Workspace to break the law, to store material you have no right to, or to attack or
        overload the service. We may limit requests that would harm other customers (for example, too many in
        a short time).
      </Typography.Paragraph>

      <Typography.Title level={3}>9. Changes</Typography.Title>
      <Typography.Paragraph>
        If we change these terms we tell your administrators before the change applies; a change never takes
        away your right to a full export and to leave.
      </Typography.Paragraph>
    </PageBody>
  );
}
