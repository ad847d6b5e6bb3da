/**
 * The files plugin's federated module (`./App`): the file centre at /fileCenter. Its widgets are exposed
 * for other plugins too: `./IconPicker` (the 840 px icon picker) and `./ImageUpload`.
 */
import { definePlugin } from '@atrium/sdk';
import { FileCenter } from './pages/FileCenter';

export default definePlugin({
  name: 'files',
  routes: [{ path: '/fileCenter/*', Component: FileCenter }],
});
