/** The algorithm of every user's key pair (ADR 0026), as GET /v1/users/:uid/public-key names it. */
export const USER_KEY_ALGORITHM = 'X25519';
