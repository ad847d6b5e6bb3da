/** Values that must exist once per page, whatever number of SDK copies are loaded: kept on
 * globalThis under a Symbol.for key, so a second copy finds the first one's value. */
export function globalSingleton<T>(name: string, create: () => T): T {
  const key = Symbol.for(`atrium.sdk.${name}`);
  const g = globalThis as unknown as Record<symbol, T | undefined>;
  let value = g[key];
  if (value === undefined) {
    value = create();
    g[key] = value;
  }
  return value;
}
