// The dead letters reach the module that sent them (issue 15, ADR 0052), against the real SMTP sink refusing every
// attempt: cis's portal invitation whose e-mail fails after its retries shows on the subcontractor (until a later
// invitation is delivered), and an issued statement whose e-mail fails shows on the statements screen of its month.
import { currentTaxMonth, londonDate } from '@workspace/cis/domain';
import {
  ALL_CIS_SCOPES,
  createSubcontractor,
  freshIdentifiers,
  subcontractorBody,
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
  state?: 'failed' | 'resending' | 'delivered';
  resentAt?: string | null;
  deliveredAt?: string | null;
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

/** An issued statement of a new subcontractor whose e-mail failed after its retries, with the screen's row. */
async function undeliveredStatement(name: string, email: string, invoiceNumber: string) {
  const identifiers = freshIdentifiers();
  const subcontractor = await createSubcontractor(h, admin, { name, email, ...identifiers });
  const created = await h.call(admin, 'POST', '/invoices', invoiceBody(subcontractor, { invoiceNumber }));
  const invoiceId = (created.body.invoice as { id: string }).id;
  await h.call(admin, 'POST', `/invoices/${invoiceId}/approve`);
  await h.call(admin, 'POST', `/invoices/${invoiceId}/pay`, { paymentDate: londonDate(new Date()) });
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
  h.sink.failFor(60_000, 451);
  await h.call(admin, 'POST', `/statements/${statement.id}/issue`, { method: 'email' });
  await eventually(async () => (await group())?.emailFailure ?? undefined, 20_000, 'the dead letter');
  return { statementId: statement.id, group, subcontractor, identifiers };
}

describe("resending an issued statement's e-mail that could not be delivered", () => {
  it('resends the kept copy with its PDF to the corrected address, once, and the statements screen says it is being resent, then delivered', async () => {
    const { statementId, group, subcontractor, identifiers } = await undeliveredStatement(
      'Rhea Resend',
      'rhea@resend.test',
      'RR-1',
    );
    expect((await group())?.emailFailure).toMatchObject({ state: 'failed', resentAt: null });
    // Issued again by email: the same e-mail (its idempotency key), so the report says to resend it.
    const reissued = await h.call(admin, 'POST', `/statements/${statementId}/issue`, { method: 'email' });
    expect(reissued.body).toMatchObject({
      emailSent: false,
      warning:
        'The email could not be delivered. Correct the address if needed, then use Resend on the statements screen.',
    });
    h.sink.recover();
    h.sink.clear();
    // The address was wrong: corrected, then resent.
    const corrected = await h.call(
      admin,
      'PUT',
      `/subcontractors/${subcontractor}`,
      subcontractorBody({ ...identifiers, name: 'Rhea Resend', email: 'rhea@fixed.test' }),
    );
    expect(corrected.status).toBe(200);

    const resent = await h.call(admin, 'POST', `/statements/${statementId}/email/resend`);
    expect(resent.status).toBe(200);
    const first = resent.body.emailFailure as MailFailure;
    expect(['resending', 'delivered']).toContain(first.state);
    expect(first.resentAt).toEqual(expect.any(String));
    // Asked again at once: the same resend's state, nothing sent twice.
    const again = await h.call(admin, 'POST', `/statements/${statementId}/email/resend`);
    expect(again.status).toBe(200);
    expect((again.body.emailFailure as MailFailure).resentAt).toBe(first.resentAt);

    const delivered = await eventually(
      async () => {
        const failure = (await group())?.emailFailure;
        return failure?.state === 'delivered' ? failure : undefined;
      },
      20_000,
      'the statements screen to say the resent email was delivered',
    );
    expect(delivered.deliveredAt).toEqual(expect.any(String));
    const copies = h.sink.messages().filter((message) => message.subject.includes('deduction statement'));
    expect(copies).toHaveLength(1);
    expect(copies[0]?.to).toEqual(['rhea@fixed.test']);
    expect(copies[0]?.attachments).toEqual([expect.objectContaining({ contentType: 'application/pdf' })]);
    // Delivered: another resend sends nothing more.
    const afterwards = await h.call(admin, 'POST', `/statements/${statementId}/email/resend`);
    expect(afterwards.body.emailFailure).toMatchObject({ state: 'delivered' });
    expect(h.sink.messages().filter((message) => message.to.includes('rhea@fixed.test'))).toHaveLength(1);
  });

  it("answers 404 to another tenant's statement, 403 without cis.stmt.issue, and 409 when there is nothing to resend", async () => {
    const { statementId, group } = await undeliveredStatement('Otto Other', 'otto@other.test', 'OO-1');
    h.sink.recover();
    const otherTenant = await h.token(ALL_CIS_SCOPES, 'acme', CIS_OTHER_ADMIN);
    const foreign = await h.call(otherTenant, 'POST', `/statements/${statementId}/email/resend`);
    expect(foreign.status).toBe(404);
    const unscoped = await h.token(['cis.stmt.read'], 'demo', CIS_OTHER_ADMIN);
    expect((await h.call(unscoped, 'POST', `/statements/${statementId}/email/resend`)).status).toBe(403);
    expect((await group())?.emailFailure).toMatchObject({ state: 'failed' });

    // A statement whose email was delivered: nothing to resend.
    const delivered = await createSubcontractor(h, admin, { name: 'Dora Delivered', email: 'dora@ok.test' });
    const created = await h.call(
      admin,
      'POST',
      '/invoices',
      invoiceBody(delivered, { invoiceNumber: 'DD-1' }),
    );
    const invoiceId = (created.body.invoice as { id: string }).id;
    await h.call(admin, 'POST', `/invoices/${invoiceId}/approve`);
    await h.call(admin, 'POST', `/invoices/${invoiceId}/pay`, { paymentDate: londonDate(new Date()) });
    await drainJobQueue(h);
    const generated = await eventually(
      async () =>
        (
          (await h.call(admin, 'GET', `/statements?taxMonth=${currentTaxMonth()}`)).body.subcontractors as {
            subcontractorId: string;
            statement: { id: string } | null;
          }[]
        ).find((entry) => entry.subcontractorId === delivered)?.statement ?? undefined,
      20_000,
      'the statement',
    );
    const issued = await h.call(admin, 'POST', `/statements/${generated.id}/issue`, { method: 'email' });
    expect(issued.body).toMatchObject({ emailSent: true });
    const nothing = await h.call(admin, 'POST', `/statements/${generated.id}/email/resend`);
    expect(nothing.status).toBe(409);
    expect(nothing.body).toMatchObject({
      code: 'nothing_to_resend',
      detail: 'This statement has no undelivered email to resend.',
    });
  });
});

const CIS_OTHER_ADMIN = '00000000-0000-4000-8000-0000000000be';
