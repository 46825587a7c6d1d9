import { createContext, useContext } from 'react';
import type { Session } from '../../app/api';
import type { DriveAbilities, DriveFile } from './api/types';

/** What every drive screen needs: the caller's abilities and session, and the module's shared dialogs. */
export interface DriveContextValue {
  abilities: DriveAbilities;
  session: Session;
  /** Opens the Upload dialog (into a drive and folder when given). */
  openUpload: (fixed?: { driveId: string; folderId?: string | null }) => void;
  openPreview: (file: DriveFile) => void;
  /** Opens the Share File dialog, when the sharing screens are present. */
  openShare?: (file: DriveFile) => void;
  /** Opens the Request signature dialog for a PDF, when the signature screens are present. */
  requestSignature?: (file: DriveFile) => void;
  /** Under 768 px: shows or hides the drive's sidebar. */
  toggleSidebar: () => void;
}

export const DriveContext = createContext<DriveContextValue | null>(null);

export function useDrive(): DriveContextValue {
  const value = useContext(DriveContext);
  if (!value) throw new Error('useDrive outside the drive module');
  return value;
}
