import {
  AccountBookOutlined,
  CalendarOutlined,
  CheckSquareOutlined,
  FileTextOutlined,
  FolderOpenOutlined,
  MessageOutlined,
  PhoneOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { ModuleIcon } from '../../app/modules';

/** The antd icon of each catalogue icon name. */
export const moduleIcons: Record<ModuleIcon, ReactNode> = {
  calendar: <CalendarOutlined />,
  notes: <FileTextOutlined />,
  chat: <MessageOutlined />,
  calls: <PhoneOutlined />,
  tasks: <CheckSquareOutlined />,
  drive: <FolderOpenOutlined />,
  cis: <AccountBookOutlined />,
};
