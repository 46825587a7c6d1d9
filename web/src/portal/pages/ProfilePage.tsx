import { Card, Descriptions } from 'antd';
import { PageTitle, WithRecords } from '../PortalShell';

/** /portal/profile: the subcontractor's details as the contractor holds them. */
export function ProfilePage() {
  return (
    <>
      <PageTitle title="Profile">Your details as your contractor holds them.</PageTitle>
      <WithRecords>
        {(records) => (
          <Card>
            <Descriptions column={1}>
              <Descriptions.Item label="Name">{records.subcontractor.name}</Descriptions.Item>
              <Descriptions.Item label="UTR">
                {records.subcontractor.utrMasked || 'Not recorded'}
              </Descriptions.Item>
              <Descriptions.Item label="Deduction rate">
                {`${records.subcontractor.verification.rate}%`}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        )}
      </WithRecords>
    </>
  );
}
