/**
 * The tracking plugin's federated module (`./App`): the home dashboard's usage cards (slot `homeCard`).
 * It has no pages; the cards read the `log` service's rollup queries.
 */
import { definePlugin } from '@atrium/sdk';
import { HomeCards } from './HomeCards';

export default definePlugin({
  name: 'tracking',
  slots: { homeCard: { span: 24, Component: HomeCards } },
});
