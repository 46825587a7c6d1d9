import { ConfigProvider } from 'antd';
import enGB from 'antd/locale/en_GB';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SharePage } from './SharePage';

// The public share page (/share/{shareId}): its own entry of the web build (ADR 0049), served by the bff to anyone,
// signed in or not; it talks only to /api/public/shares.
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ConfigProvider locale={enGB}>
        <SharePage path={window.location.pathname} search={window.location.search} />
      </ConfigProvider>
    </StrictMode>,
  );
}
