import {
  FileExcelOutlined,
  FileImageOutlined,
  FileOutlined,
  FilePdfOutlined,
  FilePptOutlined,
  FileWordOutlined,
  FileZipOutlined,
  CodeOutlined,
  SoundOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import type { FileTypeClass } from '@workspace/drive/domain';

const ICONS: Record<FileTypeClass, typeof FileOutlined> = {
  pdf: FilePdfOutlined,
  image: FileImageOutlined,
  video: VideoCameraOutlined,
  audio: SoundOutlined,
  document: FileWordOutlined,
  spreadsheet: FileExcelOutlined,
  presentation: FilePptOutlined,
  code: CodeOutlined,
  archive: FileZipOutlined,
  other: FileOutlined,
};

/** The icon of a file's type class. */
export function TypeIcon({ typeClass, size = 16 }: { typeClass: FileTypeClass; size?: number }) {
  const Icon = ICONS[typeClass];
  return <Icon style={{ fontSize: size }} aria-label={`${typeClass} file`} />;
}
