import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dataBody, dataKey, FIRST_QUERY } from '../../../web-plugins/reports/src/panel/dataBody';

const NO_STATE = { applied: {}, linkage: {}, track: [] };

test('a view asks its data with its result settings once its definition is known (spec 7.1)', () => {
  const first = dataBody('v1', NO_STATE, [], FIRST_QUERY, undefined);
  assert.equal(first.resultMode, undefined);
  assert.equal(first.resultCount, undefined);
  const known = dataBody('v1', NO_STATE, [], { ...FIRST_QUERY, resultMode: 'custom', resultCount: 50 }, undefined);
  assert.equal(known.resultMode, 'custom');
  assert.equal(known.resultCount, 50);
  // the server reads them from the view when they are left out: the panel's first answer serves the view
  assert.equal(dataKey(known), dataKey(first));
  const nextPage = dataBody('v1', NO_STATE, [], { page: 2, sort: null, resultMode: 'custom', resultCount: 50 }, undefined);
  assert.notEqual(dataKey(nextPage), dataKey(first));
});
