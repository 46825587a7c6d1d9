// drive.md §2 'Rebuild, repair summary': the drive page's Repair references asks the drive to repair every orphaned
// file reference of the drive (POST /api/drive/mutations/repair-refs {driveIds}, batches of 10 at the service) and
// says what came of it: 'Repaired {n} • Skipped {n} • Pending {n}'. The list refreshes ('Needs repair' badges go).
import { ToolOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useRepairRefsMutation } from '../api/driveApi';
import { useToast } from '../../../ui/feedback';
import { REFERENCE_TEXTS } from '../upload/referenceWarning';
import { REPAIR_REFERENCES, repairSummaryLine } from './repairSummary';

/** The drive toolbar's Repair references (holders of drive.attachment.add: abilities.canRepairReferences). */
export function RepairReferencesButton({ driveId }: { driveId: string }) {
  const [repairRefs, state] = useRepairRefsMutation();
  const toast = useToast();
  const run = async () => {
    try {
      const answer = await repairRefs({ driveIds: [driveId] }).unwrap();
      const line = repairSummaryLine(answer);
      if (answer.pending.length > 0) toast.warning(line);
      else toast.success(line);
    } catch {
      toast.error(REFERENCE_TEXTS.repairFailed);
    }
  };
  return (
    <Button icon={<ToolOutlined />} loading={state.isLoading} onClick={() => void run()}>
      {REPAIR_REFERENCES}
    </Button>
  );
}
