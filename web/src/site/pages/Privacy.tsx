import { Typography } from 'antd';
import { maskEmail, maskNino, maskPhone, maskTaxReference } from '@workspace/rules';
import { PageBody } from '../SiteLayout';

const MASKS = [
  {
    key: 'utr',
    value: 'Unique Taxpayer Reference (UTR)',
    shown: 'Its last 4 digits',
    example: maskTaxReference('1234567890'),
  },
  {
    key: 'nino',
    value: 'National Insurance number',
    shown: 'Its first 2 characters and its last',
    example: maskNino('AB123456C'),
  },
  {
    key: 'email',
    value: 'Email address',
    shown: 'Its first letter and its domain',
    example: maskEmail('john.smith@example.com'),
  },
  { key: 'phone', value: 'Phone number', shown: 'Its last 3 digits', example: maskPhone('07700 900123') },
];

/** /privacy: what is held and how, as docs/privacy.md and the e-mail rules (ADR 0030) describe it. */
export function Privacy() {
  return (
    <PageBody narrow>
      <Typography.Title style={{ marginTop: 0 }}>Privacy notice</Typography.Title>
      <Typography.Paragraph type="secondary">
        How Workspace and this website handle personal data. For the records a contractor keeps about its
        staff and subcontractors, the contractor decides what is held and why; we hold it for them.
      </Typography.Paragraph>

      <Typography.Title level={3}>What we hold</Typography.Title>
      <ul>
        <li>For a contractor’s staff: name, email address, role and the organisation they belong to.</li>
        <li>
          For subcontractors: name, contact details and addresses, UTR, National Insurance number,
          verification status, invoices, payments, deductions and statements.
        </li>
        <li>The files a contractor keeps in the drive, and the emails the service sends on its behalf.</li>
        <li>From this website: what you type into Start a project (see below).</li>
      </ul>

      <Typography.Title level={3}>Tax references and National Insurance numbers</Typography.Title>
      <Typography.Paragraph>
        UTRs and National Insurance numbers are stored encrypted (AES-256-GCM) and shown masked everywhere by
        default:
      </Typography.Paragraph>
      <div style={{ overflowX: 'auto', marginBottom: 16 }}>
        <table className="site-table">
          <thead>
            <tr>
              <th scope="col">Value</th>
              <th scope="col">What is shown</th>
              <th scope="col">Example</th>
            </tr>
          </thead>
          <tbody>
            {MASKS.map((mask) => (
              <tr key={mask.key}>
                <td>{mask.value}</td>
                <td>{mask.shown}</td>
                <td>
                  <Typography.Text code>{mask.example}</Typography.Text>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Typography.Paragraph>
        They are shown in full only to the people the contractor gives that permission to, and where HMRC
        requires the full value: on the statement a subcontractor receives and in the monthly return. Every
        time one is shown or downloaded in full, it is recorded. Exports mask them for everyone without that
        permission. Free-text fields, Start a project’s included, refuse a 10-digit number or a National
        Insurance number, so they do not end up in notes, and our logs mask them.
      </Typography.Paragraph>

      <Typography.Title level={3}>Emails</Typography.Title>
      <Typography.Paragraph>
        While an email waits to be sent, its subject, text and attachments are kept encrypted; once it has
        been sent, or has failed for good, they are deleted. A record of the email (recipients, status,
        attempts and times, never its content) is kept for 30 days, then deleted.
      </Typography.Paragraph>

      <Typography.Title level={3}>Start a project</Typography.Title>
      <Typography.Paragraph>
        When you send a project request from this website we keep your name, email address, company and
        message, encrypted, and email them to our sales team so we can reply. We use them for nothing else and
        share them with no one. Ask us in your reply and we delete your request.
      </Typography.Paragraph>

      <Typography.Title level={3}>Where and how it is kept</Typography.Title>
      <Typography.Paragraph>
        Each organisation’s data is kept apart from every other’s, in its region: the UK unless agreed
        otherwise.
      </Typography.Paragraph>

      <Typography.Title level={3}>Cookies and your browser</Typography.Title>
      <Typography.Paragraph>
        We use only what signing in needs: a session cookie once you sign in (and a short-lived one while you
        do), and your organisation id remembered in your browser. No advertising or tracking cookies, and no
        analytics.
      </Typography.Paragraph>

      <Typography.Title level={3}>When a contractor leaves</Typography.Title>
      <Typography.Paragraph>
        The contractor gets a full export of its data, and its tenant, with everything in it, is terminated
        within 24 hours of its request.
      </Typography.Paragraph>

      <Typography.Title level={3}>Your rights</Typography.Title>
      <Typography.Paragraph>
        You may ask to see, correct or delete the personal data held about you. If a contractor holds it (you
        work for one, or are one of its subcontractors), ask that contractor; for a project request, ask us.
      </Typography.Paragraph>
    </PageBody>
  );
}
