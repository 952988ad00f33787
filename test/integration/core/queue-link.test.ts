/**
 * The upload queue through the tests' model of a long link (40 ms each way, 400 Mbit/s) into the
 * real service: the send window starts small and grows towards the link's bandwidth-delay
 * product (about 4 MB here), and the file arrives whole. Not timed: only what the window did
 * and what the service holds are checked.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueData } from '../../../src/main/core/ingest/confirm';
import { SendWindow } from '../../../src/main/core/uploads/send-window';
import { startLinkModel, type LinkModel } from '../../helpers/link-model';
import { tempDir } from '../../helpers/temp';
import { startTestService, type TestService } from '../../helpers/test-service';
import { openQueue, setupAccount, sha256Of, writeFastq } from './queue-harness';
import { getDataById } from '../../../src/shared/service-api/endpoints';

const KiB = 1024;
const dir = tempDir('laneway-link-');

describe('the upload queue on a long link', () => {
  let service: TestService;
  let link: LinkModel;
  beforeAll(async () => {
    service = await startTestService();
    await setupAccount(service);
    link = await startLinkModel({ host: '127.0.0.1', port: Number(new URL(service.url).port) });
  });
  afterAll(async () => {
    await link.close();
    await service.stop();
    dir.remove();
  });

  it('grows its window past where it started on a high bandwidth-delay product, and delivers the file', async () => {
    const window = new SendWindow({ initialBytes: 512 * KiB });
    const h = await openQueue({ url: link.url }, { sendWindow: window, chunkSize: 256 * KiB, preHashLimit: 0 });
    const file = writeFastq(join(dir.path, 'far.fastq'), 60_000); // about 8 MB
    await enqueueData(h.queue, [file]);
    await h.queue.waitForIdle();
    const [job] = h.queue.list().jobs;
    expect(job).toMatchObject({ state: 'completed', checksum: sha256Of(file) });
    expect((await h.client.call(getDataById, { params: { id: job!.data_id! } })).checksum).toBe(sha256Of(file));
    // At least four times where it started: 2 MiB in flight, half the link's product.
    expect(window.peakBytes).toBeGreaterThanOrEqual(2048 * KiB);
    expect(window.shrinks).toBe(0);
    await h.close();
  });
});
