/**
 * Closing an SOS (issue 50) in a real browser: the administrator's banner offers "Close the alert", whose
 * dialog asks the outcome before it confirms; the closed alert leaves the banner and says who closed it and
 * how it turned out; an alert taken before the page loaded can still be closed after a reload.
 */
import { closeAllAlerts } from './alerts.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { openAs } from './room-support.ts';

// A busy machine may be slow: wait on states, with deadlines to match.
const expect = baseExpect.configure({ timeout: 60_000 });
test.describe.configure({ timeout: 150_000 });

test('an administrator closes an SOS as a false alarm from the banner, and one taken earlier after a reload', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const max = await seed.member({ firstName: 'Max', lastName: 'Closer' });
  await seed.addToChannel(channel.id, [max.id]);
  const console = await openAs(browser, server.baseURL, admin);
  try {
    await console.page.goto('/usersList');
    await expect(console.page.getByRole('heading', { level: 1 })).toBeVisible();
    const sent = await server.call('/user/api/sendEmergencyAlert', { channelId: channel.id }, max.token);
    expect(sent.status).toBe(200);

    const banner = console.page.getByTestId('sos-banner').filter({ hasText: 'Max Closer needs help' });
    await banner.getByRole('button', { name: 'Close the alert' }).click();
    const dialog = console.page.getByRole('dialog', { name: "Close Max Closer's alert" });
    const confirm = dialog.getByRole('button', { name: 'Confirm' });
    // No outcome chosen beforehand: the report counts false alarms.
    await expect(confirm).toBeDisabled();
    await expect(dialog.getByRole('radiogroup', { name: 'How did it turn out?' })).toBeVisible();
    await dialog.getByRole('radio', { name: 'False alarm' }).check();
    await console.page.screenshot({ path: test.info().outputPath('close-dialog.png') });
    await confirm.click();

    await expect(dialog).toBeHidden();
    await expect(banner).toHaveCount(0);
    await expect(console.page.getByText("Max Closer's alert was closed by", { exact: false })).toHaveText(
      /Max Closer's alert was closed by .+: false alarm\./,
    );
    await console.page.screenshot({ path: test.info().outputPath('closed.png') });
    const listed = await server.call('/user/api/getEmergencyAlerts', { start: 0, limit: 50 }, admin.token);
    expect(listed.body.res.alerts.find((a: { id: number }) => a.id === sent.body.res.id)).toMatchObject({
      outcome: 'false',
      closedBy: { id: admin.id },
    });

    // Taken before this page loaded and not closed yet: after a reload its close is still offered.
    const lea = await seed.member({ firstName: 'Lea', lastName: 'Later' });
    await seed.addToChannel(channel.id, [lea.id]);
    const second = await server.call('/user/api/sendEmergencyAlert', { channelId: channel.id }, lea.token);
    expect(second.status).toBe(200);
    const taken = await server.call(
      '/user/api/acknowledgeEmergencyAlert',
      { alertId: second.body.res.id },
      admin.token,
    );
    expect(taken.status).toBe(200);
    await console.page.reload();
    const notice = console.page.getByRole('alert').filter({ hasText: 'Lea Later' });
    await notice.getByRole('button', { name: 'Close the alert' }).click();
    const secondDialog = console.page.getByRole('dialog', { name: "Close Lea Later's alert" });
    await secondDialog.getByRole('radio', { name: 'Real emergency' }).check();
    await secondDialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(console.page.getByText("Lea Later's alert was closed by", { exact: false })).toHaveText(
      /Lea Later's alert was closed by .+: real emergency\./,
    );
  } finally {
    await console.close();
  }
});

test("an SOS sent while the console's live connection is still coming up shows once it is up", async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const ida = await seed.member({ firstName: 'Ida', lastName: 'Early' });
  await seed.addToChannel(channel.id, [ida.id]);
  const console = await openAs(browser, server.baseURL, admin);
  try {
    // The console's socket is held until the alert is sent, after the page fetched the open alerts: no push
    // reaches it, and its first connection must fetch them again.
    let open: () => void = () => {};
    const sent = new Promise<void>((resolve) => {
      open = resolve;
    });
    await console.page.routeWebSocket(/\/socket\.io\//, async (ws) => {
      await sent;
      ws.connectToServer();
    });
    const fetched = console.page.waitForResponse((response) => response.url().includes('getEmergencyAlerts'));
    await console.page.goto('/usersList');
    await fetched;
    const alert = await server.call('/user/api/sendEmergencyAlert', { channelId: channel.id }, ida.token);
    expect(alert.status).toBe(200);
    open();
    await expect(console.page.getByTestId('sos-banner').filter({ hasText: 'Ida Early needs help' })).toBeVisible();
  } finally {
    await console.close();
    await closeAllAlerts(server, admin);
  }
});
