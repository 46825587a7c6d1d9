// The dead letters reach the module that sent them (issue 15, ADR 0052), against the real SMTP sink refusing every
// attempt: cis's portal invitation whose e-mail fails after its retries shows on the subcontractor (until a later
// invitation is delivered), and an issued statement whose e-mail fails shows on the statements screen of its month.
import { currentTaxMonth, londonDate } from '@workspace/cis/domain';
import {
  createSubcontractor,
  drainJobQueue,
  invoiceBody,
  settingsBody,
  useCisHarnessWithAdmin,
  type CisHarness,
} from '@workspace/cis/testing';
import { eventually } from '@workspace/kit/testing';

let h: CisHarness;
let admin: string;
useCisHarnessWithAdmin(async (started) => {
  ({ h, admin } = started);
  expect((await h.call(admin, 'PUT', '/settings', settingsBody())).status).toBe(200);
});

afterEach(() => {
  h.sink.recover();
});

interface MailFailure {
  failedAt: string;
  reason: string;
}

describe("a portal invitation's e-mail that cannot be delivered", () => {
  it('shows on the subcontractor once its retries are spent, and goes once a later invitation is delivered', async () => {
    const inviter = await h.signInAs('admin@demo.test');
    const subcontractor = await createSubcontractor(h, admin, {
      name: 'Nora Nowhere',
      email: 'nora@nowhere.test',
    });
    const failure = async () =>
      (await h.call(admin, 'GET', `/subcontractors/${subcontractor}`)).body
        .invitationEmailFailure as MailFailure | null;
    expect(await failure()).toBeNull();

    // The relay refuses every attempt for now: the invitation answers at once with its warning (the link to share).
    h.sink.failFor(60_000, 451);
    const invited = await h.call(inviter, 'POST', '/subcontractors/invite', {
      subcontractorId: subcontractor,
    });
    expect(invited.status).toBe(200);
    expect(invited.body).toMatchObject({
      emailSent: false,
      warning: 'Email could not be sent. Please share the link manually.',
    });
    // Retried by the notification service until it gives up: then the subcontractor shows the failure.
    const failed = await eventually(async () => (await failure()) ?? undefined, 20_000, 'the dead letter');
    expect(failed.reason).toMatch(/451/);
    expect(Number.isNaN(Date.parse(failed.failedAt))).toBe(false);

    // A new invitation that is delivered replaces it.
    h.sink.recover();
    const again = await h.call(inviter, 'POST', '/subcontractors/invite', { subcontractorId: subcontractor });
    expect(again.body).toMatchObject({ emailSent: true });
    expect(await failure()).toBeNull();
  });
});

describe("an issued statement's e-mail that cannot be delivered", () => {
  it('shows on the statements screen of its month once its retries are spent', async () => {
    const subcontractor = await createSubcontractor(h, admin, {
      name: 'Stan Stonewall',
      email: 'stan@stonewall.test',
    });
    const created = await h.call(
      admin,
      'POST',
      '/invoices',
      invoiceBody(subcontractor, { invoiceNumber: 'SS-1' }),
    );
    expect(created.status).toBe(201);
    const invoiceId = (created.body.invoice as { id: string }).id;
    expect((await h.call(admin, 'POST', `/invoices/${invoiceId}/approve`)).status).toBe(200);
    const paid = await h.call(admin, 'POST', `/invoices/${invoiceId}/pay`, {
      paymentDate: londonDate(new Date()),
    });
    expect(paid.status).toBe(200);
    await drainJobQueue(h);
    const month = currentTaxMonth();
    const group = async () =>
      (
        (await h.call(admin, 'GET', `/statements?taxMonth=${month}`)).body.subcontractors as {
          subcontractorId: string;
          statement: { id: string; status: string } | null;
          emailFailure: MailFailure | null;
        }[]
      ).find((entry) => entry.subcontractorId === subcontractor);
    const statement = await eventually(
      async () => (await group())?.statement ?? undefined,
      20_000,
      'the statement',
    );
    expect((await group())?.emailFailure).toBeNull();

    h.sink.failFor(60_000, 451);
    const issued = await h.call(admin, 'POST', `/statements/${statement.id}/issue`, { method: 'email' });
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({
      emailSent: false,
      warning: 'The email could not be delivered yet; it will be retried automatically.',
    });
    const failed = await eventually(
      async () => (await group())?.emailFailure ?? undefined,
      20_000,
      'the dead letter on the statements screen',
    );
    expect(failed.reason).toMatch(/451/);
    expect((await group())?.statement).toMatchObject({ status: 'issued' });
  });
});
