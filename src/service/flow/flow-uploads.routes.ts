/**
 * The four upload endpoints of Flow's wire: POST /upload (any data file, here the file types
 * the service stores), /upload/sample (reads plus the sample they make), /upload/annotation and
 * /upload/multiplexed (a lane: the sheet, then R1 and R2). Each chunk goes through the
 * service's own chunked upload machinery (flow-chunks.ts).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { ServiceContext } from '../context';
import { dataTypeFor } from '../data/data.commands';
import { getDataRow } from '../data/data.store';
import { createCheckedSample } from '../samples/samples.commands';
import { findUpload, receivedBytes } from '../uploads/uploads.store';
import { flowUser } from './flow-auth';
import { receiveAnnotationChunk } from './flow-annotation';
import { type FlowFields, flag, receiveFlowChunk } from './flow-chunks';
import { badRequest, flowNotFound } from './flow-errors';
import { multiplexedArrived, multiplexedStarted } from './flow-multiplexed';
import { flowSchema } from './flow-openapi';
import { sampleInputOf } from './flow-sample-fields';
import { FlowChunkAnswer, FlowChunkForm } from './flow.schemas';

const chunkSchema = (summary: string) =>
  flowSchema({
    summary,
    consumes: ['multipart/form-data'],
    multipart: FlowChunkForm,
    response: { 200: FlowChunkAnswer },
  });

/** The ids of `previous_data`: the caller's earlier files of this sample. */
function previousData(fields: FlowFields): number[] {
  return (fields.previous_data ?? [])
    .filter((v) => v !== '')
    .map((v) => {
      if (!/^\d{1,15}$/.test(v)) throw badRequest('previous_data must be data ids');
      return Number(v);
    });
}

const UploadStatus = Type.Object({
  data_id: Type.String(),
  expected_file_size: Type.Integer({ description: 'Bytes the service holds: the offset of the next chunk' }),
  is_complete: Type.Boolean(),
  id: Type.Union([Type.String(), Type.Null()], { description: 'The finished data id, once complete' }),
});

export function flowUploadRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  // Laneway's extension (Flow's wire has no such read): what the service holds of an upload in
  // progress, so that a client resuming after a crash sends the next chunk at the right offset.
  app.get(
    `/upload/:data`,
    {
      schema: flowSchema({
        summary: 'Laneway extension: the bytes held of one of your uploads in progress (resume after a crash)',
        params: Type.Object({ data: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: UploadStatus },
      }),
    },
    async (request) => {
      const user = flowUser(request);
      const data = (request.params as { data: string }).data;
      const upload = findUpload(ctx, user.id, data);
      if (!upload) throw flowNotFound();
      const done = upload.complete === 1 && upload.data_id !== null ? upload.data_id : null;
      return {
        data_id: data,
        expected_file_size: done !== null ? (getDataRow(ctx, done)?.size ?? 0) : receivedBytes(ctx, upload.id),
        is_complete: done !== null,
        id: done !== null ? String(done) : null,
      };
    },
  );

  app.post(`/upload`, { schema: chunkSchema('Upload one chunk of a data file (offset protocol)') }, async (request) => {
    const user = flowUser(request);
    const { answer } = await receiveFlowChunk(ctx, user, request, (fields) => {
      if (flag(fields, 'is_directory'))
        throw badRequest('Directory (archive) uploads are not supported by this service');
      const wanted = fields.data_type?.[0];
      const filename = fields.filename?.[0] ?? '';
      if (wanted && wanted.toLowerCase() !== dataTypeFor(filename)) {
        throw badRequest(`Invalid data type "${wanted}": this service types "${filename}" as ${dataTypeFor(filename)}`);
      }
    });
    if (answer.kind === 'chunk') return { data_id: answer.fileId };
    return { id: String(answer.record.id), data_id: String(answer.record.id) };
  });

  app.post(
    `/upload/sample`,
    { schema: chunkSchema('Upload one chunk of a sample file; the last chunk of the last file creates the sample') },
    async (request) => {
      const user = flowUser(request);
      const { fields, answer } = await receiveFlowChunk(ctx, user, request, (f, placement) => {
        if (placement.first && previousData(f).length === 0) sampleInputOf(ctx, user, f);
      });
      if (answer.kind === 'chunk') return { data_id: answer.fileId, sample_id: null };
      const dataId = answer.record.id;
      if (!flag(fields, 'is_last_sample')) return { id: String(dataId), data_id: String(dataId), sample_id: null };
      const reads = [...previousData(fields), dataId];
      if (reads.length > 2) throw badRequest('A sample has one or two reads files');
      const sample = await createCheckedSample(ctx, user, {
        ...sampleInputOf(ctx, user, fields),
        read1: reads[0]!,
        read2: reads[1] ?? null,
      });
      return { id: String(dataId), data_id: String(dataId), sample_id: String(sample.id) };
    },
  );

  app.post(
    `/upload/annotation`,
    { schema: chunkSchema('Upload one chunk of a lane annotation sheet; the last chunk answers its verdict') },
    async (request) => {
      const user = flowUser(request);
      const answer = await receiveAnnotationChunk(ctx, user, request);
      return answer.done ? { id: answer.id, data_id: answer.id } : { data_id: answer.id };
    },
  );

  app.post(
    `/upload/multiplexed`,
    {
      schema: chunkSchema(
        'Upload one chunk of multiplexed reads (R2 names R1 in reads1); the lane starts once all are in',
      ),
    },
    async (request) => {
      const user = flowUser(request);
      const { fields, answer } = await receiveFlowChunk(ctx, user, request, (f, p) => {
        if (p.first) multiplexedStarted(ctx, user, f);
      });
      if (answer.kind === 'chunk') return { data_id: answer.fileId };
      multiplexedArrived(ctx, user, fields, answer.record);
      return { id: String(answer.record.id), data_id: String(answer.record.id) };
    },
  );
}
