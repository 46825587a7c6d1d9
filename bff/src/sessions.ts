import { createHmac } from 'node:crypto';
import { HttpProblem, problems, randomToken, type Logger } from '@workspace/kit';
import type { IdentityClient, PortalRedemption, SignInResult } from './identity-client.js';
import type { SessionStore } from './session-store.js';

/** A staff member's browser session: identity's tokens stay here, the browser holds only a random id. */
export interface StaffSession {
  /** The store key: an HMAC of the cookie's session id, so the store never holds a usable cookie value. */
  key: string;
  tenantId: string;
  uid: string;
  role: string;
  accessToken: string;
  accessTokenExpiresAt: number;
  refreshToken: string;
  refreshExpiresAt: number;
  scopes: string[];
  csrfToken: string;
  /** The sign-in (epoch ms): the session ends SESSION_ABSOLUTE_TIMEOUT_SECONDS later however it is used. */
  createdAt: number;
  /** The last request (written back at most every minute): the session ends SESSION_IDLE_TIMEOUT_SECONDS later. */
  lastSeenAt: number;
  /**
   * The IdP's ID token of the sign-in, kept only here (sealed at identity with the rest), for the id_token_hint of
   * the IdP's RP-initiated logout. Absent in sessions made before it was kept.
   */
  idToken?: string;
}

/** How long staff sessions may last (from the bff's configuration). */
export interface StaffSessionLimits {
  /** Without a request. */
  idleTimeoutMs: number;
  /** From the sign-in, however the session is used. */
  absoluteTimeoutMs: number;
}

/**
 * When a staff session ends: the earliest of its absolute end (sign-in + absolute timeout), its idle end (last
 * request + idle timeout) and its refresh token's end (identity would refuse to renew the access token after it).
 */
export function sessionEndsAt(
  session: Pick<StaffSession, 'createdAt' | 'lastSeenAt' | 'refreshExpiresAt'>,
  limits: StaffSessionLimits,
): number {
  return Math.min(
    session.createdAt + limits.absoluteTimeoutMs,
    session.lastSeenAt + limits.idleTimeoutMs,
    session.refreshExpiresAt,
  );
}

/** A subcontractor's portal session (from a magic link): one subcontractor of one tenant, no refresh. */
export interface PortalSession {
  key: string;
  tenantId: string;
  tenantName: string;
  subcontractorId: string;
  accessToken: string;
  expiresAt: number;
  csrfToken: string;
}

/** The access token is renewed when it has less than this left, so a call never starts with a dying token. */
export const REFRESH_MARGIN_MS = 30_000;
/** How long one replica may hold a session's refresh (identity's answer comes well within it). */
const REFRESH_LEASE_MS = 15_000;
const PEER_POLL_MS = 150;
/** A session's last-seen time is written back at most this often (a shared store should not see every request). */
const TOUCH_INTERVAL_MS = 60_000;

export const SESSION_ENDED = 'Your session has ended. Please sign in again.';

/** Maps a cookie's session id to its store key (HMAC-SHA256 with SESSION_SECRET). */
export function sessionKeyer(secret: string, purpose: string): (sessionId: string) => string {
  return (sessionId) => createHmac('sha256', secret).update(`${purpose}:${sessionId}`).digest('base64url');
}

interface StaffSessionsOptions {
  store: SessionStore<StaffSession>;
  identity: Pick<IdentityClient, 'refresh'>;
  keyOf: (sessionId: string) => string;
  now: () => number;
  idleTimeoutMs: number;
  absoluteTimeoutMs: number;
  logger: Logger;
}

export class StaffSessions {
  /** In-flight refreshes by session: concurrent requests share one, so a rotated refresh token is never reused. */
  private readonly refreshing = new Map<string, Promise<StaffSession>>();

  constructor(private readonly options: StaffSessionsOptions) {}

  async create(signIn: SignInResult): Promise<{ sessionId: string; session: StaffSession }> {
    const now = this.options.now();
    const sessionId = randomToken(32);
    const session: StaffSession = {
      key: this.options.keyOf(sessionId),
      tenantId: signIn.tenant.id,
      uid: signIn.user.uid,
      role: signIn.user.role,
      accessToken: signIn.accessToken,
      accessTokenExpiresAt: now + signIn.expiresIn * 1000,
      refreshToken: signIn.refreshToken,
      refreshExpiresAt: now + signIn.refreshExpiresIn * 1000,
      scopes: signIn.scopes,
      csrfToken: randomToken(32),
      createdAt: now,
      lastSeenAt: now,
      ...(signIn.idToken ? { idToken: signIn.idToken } : {}),
    };
    await this.save(session);
    return { sessionId, session };
  }

  /** How long a session made now lasts at most (its absolute timeout; identity ends its refresh chain then too). */
  get absoluteTimeoutMs(): number {
    return this.options.absoluteTimeoutMs;
  }

  /** How long the browser may keep the cookie of `session`: until its absolute end or its refresh token's. */
  cookieLifetimeMs(session: StaffSession): number {
    return (
      Math.min(session.refreshExpiresAt, session.createdAt + this.options.absoluteTimeoutMs) -
      session.createdAt
    );
  }

  /**
   * The session a cookie names, if it exists and has not ended (both the absolute and the idle timeout are checked
   * here, on every request, whatever the store or a replica's cache still holds); counts as activity for the idle
   * timeout. An ended session is deleted.
   */
  async load(sessionId: string | undefined): Promise<StaffSession | undefined> {
    if (!sessionId) return undefined;
    const session = await this.options.store.get(this.options.keyOf(sessionId));
    if (!session) return undefined;
    const now = this.options.now();
    if (this.ended(session, now)) {
      await this.end(session);
      return undefined;
    }
    if (now - session.lastSeenAt < TOUCH_INTERVAL_MS) return session;
    const { store } = this.options;
    let latest: StaffSession | undefined = session;
    if (store.lease) {
      // Under the lease, from what the store holds now: never write back tokens another replica has replaced.
      if (!(await store.lease(session.key, REFRESH_LEASE_MS))) return session;
      latest = await store.get(session.key);
      if (!latest) return undefined;
      if (this.ended(latest, now)) {
        await this.end(latest);
        return undefined;
      }
    }
    const touched = { ...latest, lastSeenAt: now };
    await this.save(touched);
    return touched;
  }

  /**
   * The session with an access token good for at least REFRESH_MARGIN_MS (renewed through identity when needed,
   * or always with `force`). When identity refuses the refresh token the session ends: 401.
   */
  fresh(session: StaffSession, options: { force?: boolean } = {}): Promise<StaffSession> {
    const pending = this.refreshing.get(session.key);
    if (pending) return pending;
    if (!options.force && session.accessTokenExpiresAt - this.options.now() > REFRESH_MARGIN_MS) {
      return Promise.resolve(session);
    }
    const refresh = this.refresh(session, options.force ?? false).finally(() => {
      this.refreshing.delete(session.key);
    });
    this.refreshing.set(session.key, refresh);
    return refresh;
  }

  async destroy(session: StaffSession): Promise<void> {
    await this.options.store.delete(session.key);
  }

  private ended(session: StaffSession, now: number): boolean {
    return now >= sessionEndsAt(session, this.options);
  }

  /** Deletes a session found ended (its refresh token dies with its chain or its own lifetime at identity). */
  private async end(session: StaffSession): Promise<void> {
    try {
      await this.destroy(session);
    } catch (error) {
      // The store's own expiry removes it; the session is refused either way.
      this.options.logger.warn({ err: error }, 'could not delete an ended session');
    }
  }

  private async refresh(stale: StaffSession, force: boolean): Promise<StaffSession> {
    const { store } = this.options;
    // A shared store: one replica at a time refreshes a session (a refresh token used twice would end every session
    // of the user at identity); the others wait for its result.
    if (store.lease) {
      const renewed = await this.takeLease(stale);
      if (renewed) return renewed;
    }
    // A copy read before an earlier refresh finished may be stale; the store has the current tokens.
    const current = await store.get(stale.key);
    if (!current) throw problems.unauthorized(SESSION_ENDED);
    const renewedMeanwhile = current.refreshToken !== stale.refreshToken;
    if (
      (!force || renewedMeanwhile) &&
      current.accessTokenExpiresAt - this.options.now() > REFRESH_MARGIN_MS
    ) {
      await this.releaseLease(current.key);
      return current;
    }
    let tokens;
    try {
      tokens = await this.options.identity.refresh(current.refreshToken);
    } catch (error) {
      if (error instanceof HttpProblem && error.status === 401) {
        this.options.logger.info(
          { tenantId: current.tenantId, userId: current.uid },
          'session ended by identity',
        );
        await this.destroy(current);
        throw problems.unauthorized(SESSION_ENDED);
      }
      await this.releaseLease(current.key);
      throw error;
    }
    const now = this.options.now();
    const renewed: StaffSession = {
      ...current,
      accessToken: tokens.accessToken,
      accessTokenExpiresAt: now + tokens.expiresIn * 1000,
      refreshToken: tokens.refreshToken,
      refreshExpiresAt: now + tokens.refreshExpiresIn * 1000,
      scopes: tokens.scopes,
      lastSeenAt: now,
    };
    await this.save(renewed);
    return renewed;
  }

  /**
   * Takes the session's lease, waiting while another request or replica holds it (a touch, or a refresh). Answers
   * the session when another holder renewed its tokens meanwhile (nothing left to do), undefined once the lease is
   * ours.
   */
  private async takeLease(stale: StaffSession): Promise<StaffSession | undefined> {
    const { store } = this.options;
    const deadline = Date.now() + REFRESH_LEASE_MS;
    while (!(await store.lease?.(stale.key, REFRESH_LEASE_MS))) {
      if (Date.now() >= deadline) {
        throw problems.unavailable('The session could not be renewed. Try again shortly.');
      }
      await new Promise((resolve) => setTimeout(resolve, PEER_POLL_MS));
      const latest = await store.get(stale.key);
      if (!latest) throw problems.unauthorized(SESSION_ENDED);
      if (
        latest.refreshToken !== stale.refreshToken &&
        latest.accessTokenExpiresAt - this.options.now() > REFRESH_MARGIN_MS
      ) {
        return latest;
      }
    }
    return undefined;
  }

  private async releaseLease(key: string): Promise<void> {
    try {
      await this.options.store.lease?.(key, 0);
    } catch (error) {
      // It expires by itself; a failed release only delays another replica's refresh.
      this.options.logger.warn({ err: error }, 'could not free a session refresh lease');
    }
  }

  private save(session: StaffSession): Promise<void> {
    return this.options.store.set(session.key, session, sessionEndsAt(session, this.options));
  }
}

interface PortalSessionsOptions {
  store: SessionStore<PortalSession>;
  keyOf: (sessionId: string) => string;
  now: () => number;
}

export class PortalSessions {
  constructor(private readonly options: PortalSessionsOptions) {}

  async create(redemption: PortalRedemption): Promise<{ sessionId: string; session: PortalSession }> {
    const sessionId = randomToken(32);
    const session: PortalSession = {
      key: this.options.keyOf(sessionId),
      tenantId: redemption.tenant.id,
      tenantName: redemption.tenant.name,
      subcontractorId: redemption.subcontractorId,
      accessToken: redemption.accessToken,
      expiresAt: this.options.now() + redemption.expiresIn * 1000,
      csrfToken: randomToken(32),
    };
    await this.options.store.set(session.key, session, session.expiresAt);
    return { sessionId, session };
  }

  async load(sessionId: string | undefined): Promise<PortalSession | undefined> {
    if (!sessionId) return undefined;
    return this.options.store.get(this.options.keyOf(sessionId));
  }

  async destroy(session: PortalSession): Promise<void> {
    await this.options.store.delete(session.key);
  }
}
