import { useState } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { App as AntApp, Button, Card, Typography } from 'antd';
import { definePlugin, useSession, useShell } from '@atrium/sdk';

function Page() {
  const location = useLocation();
  const { message } = AntApp.useApp();
  const { profile } = useSession();
  const shell = useShell();
  const [clicks, setClicks] = useState(0);
  return (
    <div className="at-page" data-testid="e2e-plugin-page">
      <Typography.Title level={3}>E2E plugin page</Typography.Title>
      <p data-testid="e2e-path">{location.pathname}</p>
      <p data-testid="e2e-user">{profile.userFullName}</p>
      <p data-testid="e2e-menus">{shell.menus.length > 0 ? 'menus-shared' : 'no-menus'}</p>
      <Button type="primary" onClick={() => { setClicks((n) => n + 1); message.success('plugin message'); }} data-testid="e2e-button">
        Clicked {clicks}
      </Button>
    </div>
  );
}

function HomeCard() {
  return <Card title="E2E card" data-testid="e2e-home-card">Figures from a plugin</Card>;
}

export default definePlugin({
  name: 'e2e-demo',
  App: () => (
    <Routes>
      <Route path="/system_manage/*" element={<Page />} />
    </Routes>
  ),
  slots: { homeCard: HomeCard },
});
