import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, json } from '../helpers';
import { api } from '../../../web-plugins/reports/src/api';
import { dataBody, FIRST_QUERY } from '../../../web-plugins/reports/src/panel/dataBody';
import { buildEnv, panelAccess } from '../../../web-plugins/reports/src/panel/PanelView';
import type { PanelDetail } from '../../../web-plugins/reports/src/model/types';

const ok = (data: unknown) => json({ code: 800, msg: 'ok', data });
const NO_STATE = { applied: {}, linkage: {}, track: [] };

function panel(proxy?: number | null): PanelDetail {
  return { id: 'p1', name: 'P', panelData: '[]', panelStyle: '{}', proxy };
}

test('a panel with a proxy user asks data and options in the proxy scope (spec 6)', async () => {
  const env = buildEnv(panel(12), undefined, true);
  assert.deepEqual(env.access, { user: 12 });
  assert.equal(dataBody('v1', NO_STATE, [], FIRST_QUERY, env.access).user, 12);
  const h = harness(() => ok(['East']));
  await api.fieldValues(['f1'], 'p1', env.access);
  assert.match(h.calls[0].url, /dataset\/field\/multFieldValues$/);
  assert.deepEqual(h.calls[0].body.params, { fieldIds: ['f1'], panelId: 'p1', userId: 12 });
  assert.equal(h.calls[0].headers.linkToken, undefined);
});

test('on a shared link the proxy replaces the link user; without a proxy the link user stays', async () => {
  const link = { linkToken: 'tok', user: 3 };
  assert.deepEqual(panelAccess(panel(12), link), { linkToken: 'tok', user: 12 });
  assert.equal(panelAccess(panel(null), link), link);
  assert.equal(panelAccess(panel(), undefined), undefined);
  const h = harness(() => ok([]));
  await api.fieldValues(['f1'], 'p1', panelAccess(panel(12), link));
  assert.match(h.calls[0].url, /linkMultFieldValues$/);
  assert.equal(h.calls[0].headers.linkToken, 'tok');
  assert.equal(h.calls[0].body.params.userId, 12);
  // no proxy, signed in: no user id at all
  assert.equal(dataBody('v1', NO_STATE, [], FIRST_QUERY, buildEnv(panel(), undefined, true).access).user, undefined);
});
