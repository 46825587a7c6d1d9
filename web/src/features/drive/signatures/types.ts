// The signature tasks as the screens read them: the drive's contract (signatures.schemas.ts, ADR 0048), by
// `import type` only.
import type { SignTaskListResponse, SignTaskResponse, SignTaskView } from '@workspace/drive/contract';

export type SignTask = SignTaskView;
export type SignTaskStatus = SignTaskView['status'];
export type { SignTaskListResponse, SignTaskResponse };
