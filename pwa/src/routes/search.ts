/** Search params arrive as plain strings (see router.tsx); this picks one out. */
export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
