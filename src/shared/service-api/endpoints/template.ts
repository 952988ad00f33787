/** The endpoints of service/sheets/template.routes.ts: the annotation templates as xlsx. */
import { WorkbookBytes } from '../annotation';
import { op } from '../endpoint';

function templateEndpoint<const K extends 'sample' | 'lane'>(kind: K) {
  return op({
    method: 'GET',
    path: `/api/annotation/${kind}`,
    operationId: kind === 'sample' ? 'getAnnotationSample' : 'getAnnotationLane',
    summary: `The ${kind} annotation template (xlsx)`,
    tags: ['annotation'],
    response: { 200: WorkbookBytes },
  });
}

export const getAnnotationSample = templateEndpoint('sample');
export const getAnnotationLane = templateEndpoint('lane');
