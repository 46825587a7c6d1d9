// The signature tasks as the screens read them: the drive's signatures schemas (signatures.schemas.ts, ADR 0048),
// written out until they land on this branch's main.
export type SignTaskStatus = 'pending' | 'signed' | 'declined';

export interface SignTask {
  id: string;
  fileId: string;
  fileName: string;
  driveId: string;
  assignedToUid: string;
  assignedToName: string;
  createdByUid: string;
  createdByName: string;
  status: SignTaskStatus;
  createdAt: string;
  signedAt: string | null;
  signedVersion: number | null;
  signaturePath: string | null;
  signedFilePath: string | null;
  hashBefore: string | null;
  hashAfter: string | null;
  declinedAt: string | null;
  declineReason: string | null;
}
