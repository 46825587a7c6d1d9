/** A benchmark size from the environment (e.g. BENCH_EVENTS), checked, with its default. */
export function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be an integer >= ${min}, got '${raw}'`);
  return value;
}
