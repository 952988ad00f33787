/**
 * The fields of POST /upload/sample (FLOW-WIRE.md §4.1) as the sample command's input:
 * `sample_type` is the category, `organism` an organism code, every other non-protocol field
 * a metadata value. Checked on the first chunk of the first file, so that nothing is stored
 * for a sample that cannot be made; the sample command checks everything again at the end.
 */
import type { ServiceContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import { requireAccess } from '../policy/policy';
import { checkMetadata } from '../samples/sample-metadata';
import type { NewSample } from '../samples/samples.commands';
import { fileNameProblem } from '../../shared/annotation/names';
import { loadVocabularies } from '../vocabularies/vocabularies';
import { type FlowFields, one } from './flow-chunks';
import { badRequest, FlowError } from './flow-errors';
import { categoryFromFlow, organismFromFlow } from './flow-vocabulary';

const PROTOCOL = new Set([
  'filename',
  'expected_file_size',
  'is_last',
  'data',
  'is_last_sample',
  'previous_data',
  'sample_name',
  'sample_type',
  'project',
  'organism',
  'blob',
]);

/** The sample a chunk's fields describe (without its reads); throws Flow's 400s. */
export function sampleInputOf(ctx: ServiceContext, user: AuthUser, fields: FlowFields): Omit<NewSample, 'read1'> {
  const name = (one(fields, 'sample_name') ?? '').trim();
  if (!name) throw new FlowError(400, { sample_name: ['This field is required.'] });
  if (/\s/.test(name)) throw new FlowError(400, { sample_name: ['Spaces in sample name'] });
  const nameProblem = fileNameProblem(name);
  if (nameProblem) throw new FlowError(400, { sample_name: [`Sample name ${nameProblem}`] });
  const category = categoryFromFlow(one(fields, 'sample_type') ?? '');
  if (!category) throw badRequest('Invalid sample type');
  const metadata: Record<string, string> = { category };
  const organismId = one(fields, 'organism');
  if (organismId) {
    const organism = organismFromFlow(organismId);
    if (!organism) throw badRequest('Invalid organism');
    metadata.organism = organism;
  }
  for (const [key, values] of Object.entries(fields)) {
    // `<id>__annotation` are the CLI's free-text companions: Laneway has no place for them.
    if (PROTOCOL.has(key) || key.endsWith('__annotation') || values[0] === undefined || values[0] === '') continue;
    metadata[key] = values[0];
  }
  checkMetadata(metadata, loadVocabularies());
  let project: number | null = null;
  const projectId = one(fields, 'project');
  if (projectId) {
    if (!/^\d{1,15}$/.test(projectId)) throw badRequest('Invalid project');
    project = Number(projectId);
    requireAccess(ctx.db, 'project', project, user, 'edit');
  }
  return { name, metadata, project };
}
