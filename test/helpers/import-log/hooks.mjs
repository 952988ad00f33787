// Module resolution hooks (run on Node's hooks thread): log each resolved URL.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (process.env.LANEWAY_IMPORT_LOG) appendFileSync(process.env.LANEWAY_IMPORT_LOG, `${result.url}\n`);
  return result;
}
