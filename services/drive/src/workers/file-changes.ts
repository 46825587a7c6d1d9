import { SseHub, type Logger } from '@workspace/kit';
import type { LiveListChange } from '../domain/index.js';

/** The channel migration 003's trigger notifies after every write of `files`, by any writer. */
export const FILE_CHANGES_CHANNEL = 'drive_file_changes';

export const FILE_CHANGE_EVENT = 'files';

/**
 * Live file lists (ADR 0024, as cis's invoice hub): one LISTEN per process on the triggers' channel (every replica
 * hears every commit), fanned out to the tenant's Server-Sent-Event subscribers as `event: files` with
 * {driveId, action} for a file (migration 003), or {action: 'access'} when drives, members or libraries changed
 * (migration 010). Ids only, never a name. `onChange` hears each (the list's count cache, the thumbnail worker).
 */
export class FileChangeHub extends SseHub {
  constructor(
    databaseUrl: string,
    logger: Logger,
    onChange: (tenantId: string, change: LiveListChange) => void = () => undefined,
  ) {
    super({
      name: 'drive-file-changes',
      databaseUrl,
      channel: FILE_CHANGES_CHANNEL,
      logger,
      parse: (payload) => {
        try {
          const parsed = JSON.parse(payload) as { tenantId?: string; driveId?: string; action?: string };
          if (!parsed.tenantId) return undefined;
          let change: LiveListChange;
          if (parsed.action === 'access') change = { action: 'access' };
          else if (parsed.driveId)
            change = {
              driveId: parsed.driveId,
              action: (parsed.action ?? 'update') as 'insert' | 'update' | 'delete',
            };
          else return undefined;
          return { tenantId: parsed.tenantId, event: FILE_CHANGE_EVENT, data: JSON.stringify(change) };
        } catch {
          return undefined;
        }
      },
      onMessage: (message) => {
        onChange(message.tenantId, JSON.parse(message.data) as LiveListChange);
      },
    });
  }
}
