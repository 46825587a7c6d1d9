// The clock a service reads for business dates ("today", the tax month in progress, deadlines), so a test can set
// the day instead of waiting for it. Timestamps of technical events (leases, retries, metrics) keep Date.now().

export interface Clock {
  now(): Date;
}

/** The machine's clock: what every service reads outside tests. */
export const systemClock: Clock = { now: () => new Date() };
