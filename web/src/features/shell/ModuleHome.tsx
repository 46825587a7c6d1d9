import { Empty, Typography } from 'antd';
import type { ModuleEntry } from '../../app/modules';

/**
 * A module's landing page in the shell. The modules' own screens arrive with their issues (CIS is next); until
 * then the page says so plainly rather than pretending.
 */
export function ModuleHome({ module }: { module: ModuleEntry }) {
  return (
    <div>
      <Typography.Title level={2}>{module.label}</Typography.Title>
      <Empty description={`The ${module.label} screens are not available in this version yet.`} />
    </div>
  );
}
