/** Fixture manifests of the lifecycle tests: Test Steps (a worker) and Test Resumable (Snakemake). */
import { fileURLToPath } from 'node:url';

export const LIFECYCLE_MANIFESTS = fileURLToPath(new URL('./fixtures/manifests', import.meta.url));
