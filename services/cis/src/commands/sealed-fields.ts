import { HttpProblem, type FieldCipher, type Logger } from '@workspace/kit';

/** UTRs and NINOs at rest: sealed with the tenant-independent field cipher, failures as the spec words them. */
export class SealedFields {
  constructor(
    private readonly cipher: FieldCipher,
    private readonly logger: Logger,
  ) {}

  /** Seals a UTR or NINO; a failure is the spec's 'Failed to encrypt sensitive data' (the cause is logged). */
  seal(value: string): string {
    try {
      return this.cipher.encrypt(value);
    } catch (error) {
      this.logger.error({ err: error }, 'field encryption failed');
      throw new HttpProblem(500, 'encryption_failed', 'Failed to encrypt sensitive data');
    }
  }

  /** Opens a sealed value ('' for none); a failure (wrong or retired key, damage) is 'Failed to decrypt sensitive data'. */
  open(value: string | null): string {
    if (!value) return '';
    try {
      return this.cipher.decrypt(value);
    } catch (error) {
      this.logger.error({ err: error }, 'field decryption failed');
      throw new HttpProblem(500, 'decryption_failed', 'Failed to decrypt sensitive data');
    }
  }
}
