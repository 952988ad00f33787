/**
 * The core's entry for the headless commands (`laneway upload`, `users`, `backup`): the durable
 * upload queue with its sign-in, and the data folders. The full entry (index.ts) also brings the
 * desktop's browser host, service supervisor and folder watchers, with chokidar and ws, which a
 * command run once per file would load for nothing (issue 21: each command imports only what it
 * uses). Like index.ts, this is a public entry: the CLI imports the core from these two only.
 */
export { NoStoredSignIn, openHeadlessQueue, type HeadlessQueue } from './headless-queue';
export { enqueueData, enqueueLane, enqueueSamples } from './ingest/confirm';
export { defaultUserDataDir, serviceDataDir } from './paths';
export { normaliseServiceUrl } from './session/profiles';
export type { UploadQueue, UploadQueueOptions } from './uploads/upload-queue';
